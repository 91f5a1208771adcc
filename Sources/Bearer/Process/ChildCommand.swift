import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD)
    /// Starts a child process that inherits none of the calling program's state that is not its
    /// own: every signal has its default disposition and none is blocked (a tool that ignores
    /// SIGPIPE must not pass that on to a browser), and the environment holds no secret.
    package enum ChildCommand {
        /// Environment variables never passed to a child: they hold secrets.
        package static let secretVariables: Set<String> = ["BEARER_CLIENT_SECRET"]

        /// The environment a child gets: this process's, without ``secretVariables``.
        package static func environment(_ parent: [String: String] = ProcessInfo.processInfo.environment) -> [String:
            String]
        {
            parent.filter { !secretVariables.contains($0.key) }
        }

        /// Runs `/bin/sh -c SCRIPT NAME ARGUMENTS…` with standard input from `/dev/null` and its
        /// output on standard error; `finished` is told its exit status, from another thread.
        ///
        /// - Returns: Whether the process started.
        static func start(
            script: String,
            name: String,
            arguments: [String],
            finished: @escaping @Sendable (Int32) -> Void
        ) -> Bool {
            // Darwin's spawn types are opaque pointers that posix_spawnattr_init allocates;
            // Glibc's are structs it fills in.
            #if canImport(Darwin)
                var attributes: posix_spawnattr_t?
                var actions: posix_spawn_file_actions_t?
            #else
                var attributes = posix_spawnattr_t()
                var actions = posix_spawn_file_actions_t()
            #endif
            guard posix_spawnattr_init(&attributes) == 0 else { return false }
            defer { posix_spawnattr_destroy(&attributes) }
            guard posix_spawn_file_actions_init(&actions) == 0 else { return false }
            defer { posix_spawn_file_actions_destroy(&actions) }
            var all = sigset_t()
            var none = sigset_t()
            sigfillset(&all)
            sigemptyset(&none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
            let argv = ["/bin/sh", "-c", script, name] + arguments
            let envp = environment().map { "\($0.key)=\($0.value)" }
            var pid = pid_t()
            let status = withCStrings(argv) { argvPointers in
                withCStrings(envp) { envPointers in
                    posix_spawn(&pid, "/bin/sh", &actions, &attributes, argvPointers, envPointers)
                }
            }
            guard status == 0 else { return false }
            let child = pid
            Thread.detachNewThread {
                var exit: Int32 = 0
                while waitpid(child, &exit, 0) < 0 && errno == EINTR {}
                finished(exitStatus(exit))
            }
            return true
        }

        /// The exit code of a `waitpid` status, or 128 + the signal that ended the process.
        private static func exitStatus(_ status: Int32) -> Int32 {
            let signal = status & 0x7F
            return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        }

        private static func withCStrings<Result>(
            _ strings: [String],
            _ body: ([UnsafeMutablePointer<CChar>?]) -> Result
        ) -> Result {
            var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
            pointers.append(nil)
            defer {
                for pointer in pointers { free(pointer) }
            }
            return body(pointers)
        }
    }
#endif
