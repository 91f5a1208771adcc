#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `bearer` built by SwiftPM in a checkout (`swift run bearer …`, `swift build --product bearer`):
/// SwiftPM builds only the product asked for, so `bearer-full` may not be there yet. Then `bearer`
/// builds it once, with the same configuration and scratch folder, before running it, so the tool
/// a developer tries first is complete. An installed `bearer` is never in such a folder.
extension FullTool {
    /// Where SwiftPM built an executable: the package, its scratch folder and the configuration.
    package struct PackageBuild: Sendable, Equatable {
        /// The package's folder (holding `Package.swift`).
        package let package: String
        /// The scratch folder (`.build`, or what `--scratch-path` named).
        package let scratch: String
        /// `debug` or `release`.
        package let configuration: String

        /// Names a package build.
        package init(package: String, scratch: String, configuration: String) {
            self.package = package
            self.scratch = scratch
            self.configuration = configuration
        }

        /// The command that builds the whole tool there.
        package var arguments: [String] {
            [
                "swift", "build", "--package-path", package, "--scratch-path", scratch, "-c", configuration,
                "--product", name,
            ]
        }
    }

    /// The package build that made the executable in `folder`, if SwiftPM made it in a checkout of
    /// this package: `<package>/<scratch>/<triple>/<configuration>/`, where the package's
    /// `Package.swift` declares the whole tool.
    ///
    /// - Parameters:
    ///   - folder: The running executable's folder, symbolic links resolved.
    ///   - manifest: Reads a `Package.swift`, or `nil` when there is none.
    package static func packageBuild(inFolder folder: String, manifest: (String) -> String?) -> PackageBuild? {
        var scratch = folder.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let configuration = scratch.popLast(), ["debug", "release"].contains(configuration),
            scratch.popLast() != nil, !scratch.isEmpty
        else { return nil }
        // The scratch folder is `<package>/.build` by default; `--scratch-path` may put it deeper.
        for depth in 1...min(3, scratch.count) {
            let package = "/" + scratch.dropLast(depth).joined(separator: "/")
            let root = package == "/" ? "" : package
            if let text = manifest(root + "/Package.swift"), text.contains("\"\(name)\"") {
                return PackageBuild(
                    package: package, scratch: "/" + scratch.joined(separator: "/"), configuration: configuration)
            }
        }
        return nil
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
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Exited normally with status 0.
        return status & 0x7f == 0 && (status >> 8) & 0xff == 0
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
