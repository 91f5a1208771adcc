@_spi(Internals) import BearerCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
    import MachO  // _NSGetExecutablePath (mach-o/dyld.h)
#endif

/// The whole tool, `bearer-full`, which the `bearer` executable becomes for everything it does
/// not answer itself, the way git runs `git-remote-https` only when it talks HTTP. It is looked
/// for next to `bearer`, then in `../libexec/bearer/` beside `bearer`'s folder; a `bearer` that
/// SwiftPM built in a checkout builds it there first when it is missing.
package enum FullTool {
    /// The executable's name.
    package static let name = "bearer-full"

    /// Where the whole tool may be when the running executable is `executable`, in the order
    /// they are tried.
    ///
    /// - Parameter executable: The running executable's absolute path.
    /// - Returns: The candidate paths.
    package static func candidates(besides executable: String) -> [String] {
        let folder = folder(of: executable)
        return [folder + "/" + name, folder + "/../libexec/bearer/" + name]
    }

    /// The folder of the executable at `path`.
    static func folder(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    }

    /// Replaces this process with the whole tool, run with the same `arguments` and environment.
    ///
    /// - Parameters:
    ///   - arguments: The words after `bearer`.
    ///   - console: Where to say why the tool cannot run.
    /// - Returns: Only when the whole tool cannot be run, after saying why: the exit code to use.
    package static func replaceProcess(arguments: [String], console: Console = .standard) -> Int32 {
        guard let executable = runningExecutable() else {
            console.say("bearer: cannot find where this executable is, so \(name) cannot be run.")
            return ExitCode.failure.rawValue
        }
        let paths = candidates(besides: executable)
        var found = paths.first { access($0, X_OK) == 0 }
        if found == nil, let checkout = packageBuild(inFolder: folder(of: executable), manifest: readManifest) {
            let user = UInt32(geteuid())
            if let untrusted = untrustedPath(
                of: checkout, ownership: readOwnership, user: user, isPrivateGroup: { isPrivateGroup($0, of: user) })
            {
                console.say(
                    "bearer: \(name), which runs every command but a fresh `token` and `status`, is missing, and "
                        + "bearer builds it only in a checkout that is yours alone: \(untrusted.printable). If this "
                        + "checkout is yours, build it with: \(checkout.arguments.joined(separator: " ").printable)")
                return ExitCode.failure.rawValue
            }
            if build(checkout, console: console) { found = paths.first { access($0, X_OK) == 0 } }
        }
        if let path = found {
            // The executable, the folder that holds it, and that folder's folder (`bin` and its
            // prefix, or `libexec/bearer` and `libexec`, or a build folder and its triple).
            let folder = Self.folder(of: path)
            let guarded = [path, folder, Self.folder(of: folder)]
            let user = UInt32(geteuid())
            if let untrusted = untrustedExecutablePath(
                guarded, ownership: readOwnership, user: user, isPrivateGroup: { isPrivateGroup($0, of: user) })
            {
                console.say(
                    "bearer: \(name) was found at \(path.printable), but \(untrusted.printable), so bearer does not "
                        + "run it: it could be someone else's program. Install the tool where only you (or root) can "
                        + "write (scripts/install does).")
                return ExitCode.failure.rawValue
            }
        }
        guard let path = found else {
            console.say(
                "bearer: \(name), which runs every command but a fresh `token` and `status`, is missing: "
                    + "put it next to \(executable) or in \(paths[1].dropLast(name.count + 1)) "
                    + "(scripts/install does), or run it directly."
            )
            return ExitCode.failure.rawValue
        }
        let words = [path] + arguments
        var argv = words.map { strdup($0) }
        argv.append(nil)
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        for word in argv { free(word) }
        console.say("bearer: cannot run \(path): \(reason).")
        return ExitCode.failure.rawValue
    }

    /// The running executable's absolute path, with symbolic links resolved.
    private static func runningExecutable() -> String? {
        #if canImport(Darwin)
            var size: UInt32 = 0
            _ = _NSGetExecutablePath(nil, &size)
            var buffer = [CChar](repeating: 0, count: Int(size) + 1)
            guard _NSGetExecutablePath(&buffer, &size) == 0, let resolved = realpath(buffer, nil) else { return nil }
        #else
            guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
        #endif
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
