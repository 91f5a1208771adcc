#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD)
    extension LoopbackAgent {
        /// Binds the listener and opens pages in the user's default browser
        /// (``BrowserOpener/systemDefault(onFailure:)``: `open` on macOS, `xdg-open` on Linux), so a
        /// tool signs in with `LoopbackAgent()`.
        ///
        /// - Parameters:
        ///   - port: The port, or 0 for any free one (RFC 8252 §7.3 asks servers to allow any port).
        ///   - path: The redirect's path.
        ///   - timeout: How long to wait for the browser (5 minutes by default).
        /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the port cannot be bound.
        public init(
            port: UInt16 = 0,
            path: String = "/callback",
            timeout: Duration = .seconds(300)
        ) throws {
            try self.init(
                port: port, path: path, timeout: timeout,
                opener: .systemDefault())
        }
    }
#endif
