#if canImport(Glibc)
    package import Glibc
#elseif canImport(Musl)
    package import Musl
#elseif canImport(Darwin)
    package import Darwin
#endif

/// The signal dispositions both executables set before anything else, and how the tool reads one.
package enum ToolSignals {
    /// Ignores SIGPIPE (a reader that goes away must not kill the tool), gives SIGQUIT the
    /// kernel's default action, and writes no core file. The Swift runtime's backtracer otherwise
    /// answers Ctrl-\ with the registers and the memory they point at on standard error, and a
    /// core file holds the whole memory; either can hold tokens. So the tool ends as SIGQUIT,
    /// printing nothing and dumping nothing (its soft core-size limit is 0, which core-collecting
    /// services such as systemd-coredump also honour). A SIGQUIT its parent ignored stays ignored.
    package static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        var quit = sigaction()
        if sigaction(SIGQUIT, nil, &quit) == 0, !isIgnored(quit) {
            signal(SIGQUIT, SIG_DFL)
        }
        var core = rlimit()
        if getrlimit(coreLimit, &core) == 0 {
            core.rlim_cur = 0
            setrlimit(coreLimit, &core)
        }
    }

    /// `RLIMIT_CORE`, which Glibc imports as an enumeration and Darwin as an `Int32`.
    private static var coreLimit: Int32 {
        #if canImport(Darwin)
            RLIMIT_CORE
        #else
            Int32(RLIMIT_CORE.rawValue)
        #endif
    }

    /// Whether `disposition` ignores its signal (`SIG_IGN`, the handler address 1).
    package static func isIgnored(_ disposition: sigaction) -> Bool {
        handlerAddress(disposition) == 1
    }

    /// The handler address of `disposition`: 0 for the default action (`SIG_DFL`), 1 when the
    /// signal is ignored (`SIG_IGN`), else the handler's.
    package static func handlerAddress(_ disposition: sigaction) -> Int {
        #if canImport(Darwin)
            unsafeBitCast(disposition.__sigaction_u.__sa_handler, to: Int.self)
        #else
            unsafeBitCast(disposition.__sigaction_handler.sa_handler, to: Int.self)
        #endif
    }
}
