import Foundation

/// Reads a client secret from a file: its first line, without surrounding white space.
enum SecretFile {
    /// Larger files are not secrets but mistakes (a key, an archive).
    static let maximumSize = 65_536

    static func read(_ path: String, command: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw UsageError(
                "Cannot read the client secret file \(path); check the path and its permissions.", command: command)
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: maximumSize + 1)) ?? nil
        guard let data, data.count <= maximumSize else {
            throw UsageError(
                "The client secret file \(path) is empty or larger than 64 KiB; it must hold the secret alone.",
                command: command)
        }
        let text = String(decoding: data, as: UTF8.self)
        let firstLine = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let secret = firstLine.trimmingCharacters(in: .whitespaces)
        guard !secret.isEmpty else {
            throw UsageError(
                "The client secret file \(path) is empty; it must hold the secret on its first line.",
                command: command)
        }
        return secret
    }
}
