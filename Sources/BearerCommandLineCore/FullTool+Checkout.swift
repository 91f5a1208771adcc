#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `bearer` built by SwiftPM in a checkout (`swift run bearer …`, `swift build --product bearer`):
/// SwiftPM builds only the product asked for, so `bearer-full` may not be there yet. Then `bearer`
/// builds it once, with the same configuration, before running it, so the tool a developer tries
/// first is complete. An installed `bearer` is never in such a folder.
///
/// Building runs the package's manifest and code as the user, so `bearer` builds only its own
/// checkout: the executable must sit in `<package>/.build/<triple>/<configuration>/`, the
/// package's `Package.swift` must declare the whole tool, and the manifest and every folder from
/// the package down to the executable's must belong to the user and be writable by nobody else.
/// Anywhere else (a shared folder, another user's checkout, a scratch folder moved elsewhere) it
/// builds nothing and prints the command that would.
extension FullTool {
    /// Where SwiftPM built an executable: the package and the configuration, with the default
    /// scratch folder `<package>/.build`.
    package struct PackageBuild: Sendable, Equatable {
        /// The package's folder (holding `Package.swift`).
        package let package: String
        /// The executable's folder, `<package>/.build/<triple>/<configuration>`.
        package let folder: String
        /// `debug` or `release`.
        package let configuration: String

        /// Names a package build.
        package init(package: String, folder: String, configuration: String) {
            self.package = package
            self.folder = folder
            self.configuration = configuration
        }

        /// The command that builds the whole tool there.
        package var arguments: [String] {
            ["swift", "build", "--package-path", package, "-c", configuration, "--product", name]
        }

        /// The manifest and the folders whose owner and mode decide whether the build is the
        /// user's own: `Package.swift`, then each folder from the package to the executable's.
        package var guardedPaths: [String] {
            let root = package == "/" ? "" : package
            var paths = [root + "/Package.swift", package]
            var path = root
            for component in folder.dropFirst(root.count).split(separator: "/") {
                path += "/" + component
                paths.append(path)
            }
            return paths
        }
    }

    /// The owner and mode of a file, as `lstat` gives them (a symbolic link is not followed).
    package struct FileOwnership: Sendable, Equatable {
        /// The owner's user ID.
        package let owner: UInt32
        /// The group's ID.
        package let group: UInt32
        /// The permission bits.
        package let mode: UInt32
        /// Whether the path is a symbolic link.
        package let isSymbolicLink: Bool

        /// Describes a file.
        package init(owner: UInt32, group: UInt32 = 0, mode: UInt32, isSymbolicLink: Bool) {
            self.owner = owner
            self.group = group
            self.mode = mode
            self.isSymbolicLink = isSymbolicLink
        }
    }

    /// The package build that made the executable in `folder`, if SwiftPM made it in a checkout of
    /// this package: `<package>/.build/<triple>/<configuration>/`, where the package's
    /// `Package.swift` declares the whole tool.
    ///
    /// - Parameters:
    ///   - folder: The running executable's folder, symbolic links resolved.
    ///   - manifest: Reads a `Package.swift`, or `nil` when there is none.
    package static func packageBuild(inFolder folder: String, manifest: (String) -> String?) -> PackageBuild? {
        var components = folder.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let configuration = components.popLast(), ["debug", "release"].contains(configuration),
            let triple = components.popLast(), components.popLast() == ".build"
        else { return nil }
        let package = "/" + components.joined(separator: "/")
        let root = package == "/" ? "" : package
        guard let text = manifest(root + "/Package.swift"), text.contains("\"\(name)\"") else { return nil }
        return PackageBuild(
            package: package, folder: root + "/.build/" + triple + "/" + configuration, configuration: configuration)
    }

    /// The first of `paths` that someone else than `user` or the system (root) may have put there
    /// or may change, with why, or `nil`: what `bearer` checks before it runs a `bearer-full` it
    /// found (the file, and the folders that hold it), so that no one else's program runs as the
    /// user, even from a build folder others can write to. A folder writable by the user's private
    /// group (as a umask of 002 gives, with a group per user) is the user's.
    ///
    /// - Parameters:
    ///   - paths: The executable, then the folders that hold it.
    ///   - ownership: Reads a path's owner and mode without following a symbolic link.
    ///   - user: The effective user ID.
    ///   - isPrivateGroup: Whether a group ID is the user's private group (see
    ///     ``isPrivateGroup(_:of:)``); asked only about the group of a group-writable path.
    package static func untrustedExecutablePath(
        _ paths: [String],
        ownership: (String) -> FileOwnership?,
        user: UInt32,
        isPrivateGroup: (UInt32) -> Bool
    ) -> String? {
        for path in paths {
            guard let file = ownership(path) else { return "\(path) cannot be inspected" }
            if file.owner != user && file.owner != 0 { return "\(path) belongs to another user" }
            if let writers = otherWriters(of: file, isPrivateGroup: isPrivateGroup) { return "\(path) \(writers)" }
        }
        return nil
    }

    /// The first path of `build` that makes it someone else's to change, with why, or `nil` when
    /// the manifest and every folder down to the executable's belong to `user`, writable by no one
    /// else but the user's private group.
    ///
    /// - Parameters:
    ///   - build: The package build.
    ///   - ownership: Reads a path's owner and mode without following a symbolic link.
    ///   - user: The effective user ID.
    ///   - isPrivateGroup: Whether a group ID is the user's private group; asked only about the
    ///     group of a group-writable path.
    package static func untrustedPath(
        of build: PackageBuild,
        ownership: (String) -> FileOwnership?,
        user: UInt32,
        isPrivateGroup: (UInt32) -> Bool
    ) -> String? {
        for path in build.guardedPaths {
            guard let file = ownership(path) else { return "\(path) cannot be inspected" }
            if file.isSymbolicLink { return "\(path) is a symbolic link" }
            if file.owner != user { return "\(path) belongs to another user" }
            if let writers = otherWriters(of: file, isPrivateGroup: isPrivateGroup) { return "\(path) \(writers)" }
        }
        return nil
    }

    /// Who else than the owner may change `file`, said as the end of a sentence, or `nil` when no
    /// one may: a file writable by its group is the owner's alone when that group is the owner's
    /// private group.
    private static func otherWriters(of file: FileOwnership, isPrivateGroup: (UInt32) -> Bool) -> String? {
        if file.mode & 0o002 != 0 { return "can be changed by every user (mode \(octal(file.mode)))" }
        if file.mode & 0o020 != 0 && !isPrivateGroup(file.group) {
            return "can be changed by the members of its group \(file.group) (mode \(octal(file.mode))), which is "
                + "not your private group (a group named after you with no other members)"
        }
        return nil
    }

    private static func octal(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Builds the whole tool in `build`, its output on stderr so that stdout stays the command's.
    ///
    /// - Returns: Whether `swift build` ran and succeeded.
    static func build(_ build: PackageBuild, console: Console) -> Bool {
        console.say(
            "bearer: building \(name), which runs every command but a fresh `token` and `status`, in "
                + "\(build.package) (once)…")
        // Darwin's file actions are an opaque pointer that the init call allocates; Glibc's a struct.
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        var argv = build.arguments.map { strdup($0) }
        argv.append(nil)
        defer { for word in argv { free(word) } }
        var pid = pid_t()
        guard posix_spawnp(&pid, "swift", &actions, nil, argv, environ) == 0 else { return false }
        var status: Int32 = 0
        var waited = waitpid(pid, &status, 0)
        while waited < 0 && errno == EINTR { waited = waitpid(pid, &status, 0) }
        // Exited normally with status 0.
        return waited == pid && status & 0x7f == 0 && (status >> 8) & 0xff == 0
    }

    /// The owner and mode of `path`, not following a symbolic link, or `nil`.
    static func readOwnership(_ path: String) -> FileOwnership? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return FileOwnership(
            owner: UInt32(status.st_uid), group: UInt32(status.st_gid), mode: UInt32(status.st_mode & 0o7777),
            isSymbolicLink: (status.st_mode & mode_t(S_IFMT)) == mode_t(S_IFLNK))
    }

    /// The contents of the file at `path`, up to 1 MiB, or `nil`.
    static func readManifest(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        let count = fread(&bytes, 1, bytes.count, file)
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
