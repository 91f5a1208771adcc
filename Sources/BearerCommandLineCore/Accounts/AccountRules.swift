@_spi(Internals) import BearerCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The per-directory account rules: a file named `.bearer-account` in the working directory or
/// any folder above it, whose lines name the account each profile uses there:
///
/// ```
/// # PROFILE = ACCOUNT (an e-mail, a name, a subject or a key, as --account takes)
/// default = ada@work.example
/// staging = test-user
/// ```
///
/// The nearest file with a line for the profile wins. A file is used only when it belongs to the
/// user and nobody else may write it; any other is skipped with a warning, so a file another
/// user planted in a shared folder (`/tmp`) never picks the account. Only `--account` and
/// `$BEARER_ACCOUNT` come before it.
package enum AccountRules {
    /// The rule file's name.
    package static let fileName = ".bearer-account"

    /// The largest rule file read, in bytes.
    static let largestFile = 16_384

    /// What the rule files from a folder up say for a profile.
    package struct Finding: Equatable {
        /// The account the nearest file with a line for the profile names; `nil` when none does.
        package var account: String?
        /// Why each rule file on the way was skipped, for the user to read.
        package var skipped: [String] = []
    }

    /// The account the rules name for `profile`, from `directory` up, and the files skipped.
    ///
    /// - Parameters:
    ///   - profile: The profile's name.
    ///   - directory: The working directory.
    /// - Throws: ``UsageError`` for a line that is not `PROFILE = ACCOUNT`, naming the file and line.
    package static func account(for profile: String, from directory: String) throws -> Finding {
        var finding = Finding()
        var folder = directory
        while true {
            let path = folder.hasSuffix("/") ? folder + fileName : folder + "/" + fileName
            switch readOwnFile(at: path) {
            case .absent:
                break
            case .skipped(let reason):
                finding.skipped.append("Skipped \(path.printable): \(reason)")
            case .text(let text):
                if let account = try account(for: profile, in: text, file: path) {
                    finding.account = account
                    return finding
                }
            }
            guard let parent = parentFolder(of: folder) else { return finding }
            folder = parent
        }
    }

    /// The account `text`, the rule file at `file`, names for `profile`.
    ///
    /// - Throws: ``UsageError`` for a malformed line.
    package static func account(for profile: String, in text: String, file: String) throws -> String? {
        var found: String?
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, rawLine) in lines.enumerated() {
            let line = rawLine.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
            guard parts.count == 2, let name = parts.first, let account = parts.last, !name.isEmpty, !account.isEmpty,
                !name.contains(" "), !account.contains(" ")
            else {
                throw UsageError(
                    "Line \(index + 1) of \(file.printable) is not \"PROFILE = ACCOUNT\"; fix or remove it.")
            }
            if name == profile, found == nil { found = String(account) }
        }
        return found
    }

    /// The folder above `folder`; `nil` at the root.
    package static func parentFolder(of folder: String) -> String? {
        var trimmed = Substring(folder)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return nil }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    /// What was found at a rule file's path.
    private enum Read {
        case absent
        case skipped(String)
        case text(String)
    }

    /// The text of the file at `path` when it exists, is a regular file of the user's that nobody
    /// else may write, and is small; otherwise why it is skipped, or that there is none.
    private static func readOwnFile(at path: String) -> Read {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: return .absent
            case ELOOP: return .skipped("a rule file may not be a symbolic link.")
            default: return .skipped("it cannot be opened (\(String(cString: strerror(errno)))).")
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            return .skipped("a rule file must be a regular file.")
        }
        guard status.st_uid == geteuid(), status.st_mode & 0o022 == 0 else {
            return .skipped("a rule file is used only when it is yours and nobody else may write it (chmod go-w).")
        }
        guard status.st_size <= largestFile else {
            return .skipped("a rule file may hold at most \(largestFile) bytes.")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { return .skipped("it cannot be read.") }
        return .text(String(decoding: bytes.prefix(count), as: UTF8.self))
    }
}

extension Substring {
    /// The text without its leading and trailing spaces, tabs and carriage returns.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        return text
    }
}
