#if canImport(Glibc)
    package import Glibc
#elseif canImport(Musl)
    package import Musl
#elseif canImport(Darwin)
    package import Darwin
#endif

/// The signal dispositions both executables set before anything else, and how the tool reads one.
package enum ToolSignals {
    /// Ignores SIGPIPE (a reader that goes away must not kill the tool), and gives SIGQUIT the
    /// kernel's default action. The Swift runtime's backtracer otherwise answers Ctrl-\ with the
    /// registers and the memory they point at on standard error, and that memory can hold tokens;
    /// with the default action the tool ends as SIGQUIT, printing nothing. A SIGQUIT its parent
    /// ignored stays ignored.
    package static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        var quit = sigaction()
        if sigaction(SIGQUIT, nil, &quit) == 0, !isIgnored(quit) {
            signal(SIGQUIT, SIG_DFL)
        }
    }

    /// Whether `disposition` ignores its signal (`SIG_IGN`, the handler address 1).
    package static func isIgnored(_ disposition: sigaction) -> Bool {
        #if canImport(Darwin)
            let handler = disposition.__sigaction_u.__sa_handler
        #else
            let handler = disposition.__sigaction_handler.sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == 1
    }
}
