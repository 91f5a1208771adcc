public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-shot HTTP listener on 127.0.0.1 that receives an authorization redirect, for tools that
/// sign in through the user's browser (RFC 8252 §7.3).
///
/// It binds port 0 (any free port) unless told otherwise, answers the redirect with a short page
/// that never shows the code, ignores other paths (`/favicon.ico`), answers anything but GET with
/// 400, survives clients that hang up, and gives up after a timeout.
///
/// ```swift
/// let listener = try LoopbackRedirectListener()
/// let request = try AuthorizationRequest(server: server, client: client, scopes: scopes,
///                                        redirectURI: listener.redirectURI)
/// open(request.url)
/// let redirect = try await listener.waitForRedirect(timeout: .seconds(300))
/// ```
public final class LoopbackRedirectListener: @unchecked Sendable {
    /// The port the listener is bound to.
    public let port: UInt16
    /// The path the redirect must have.
    public let path: String
    private let descriptor: Int32

    /// The redirect URI to send: `http://127.0.0.1:<port><path>`.
    public var redirectURI: URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// The page shown in the browser after the redirect.
    public static let page = """
        <!doctype html><html><head><meta charset="utf-8"><title>Bearer</title></head>
        <body><p>Bearer received the answer. You can close this tab and return to the terminal.</p></body></html>
        """

    /// Binds a listener on 127.0.0.1.
    ///
    /// - Parameters:
    ///   - port: The port, or 0 for any free one.
    ///   - path: The redirect's path.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the port cannot be bound.
    public init(port: UInt16 = 0, path: String = "/callback") throws {
        #if canImport(Darwin)
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw Self.failure("create a socket") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let error = Self.failure("listen on 127.0.0.1:\(port)")
            close(descriptor)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            close(descriptor)
            throw Self.failure("read the listening port")
        }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: address.sin_port)
        self.path = path.hasPrefix("/") ? path : "/" + path
    }

    deinit {
        close(descriptor)
    }

    /// Waits for the browser to bring the redirect.
    ///
    /// - Parameter timeout: How long to wait.
    /// - Returns: The redirect URL, with its query.
    /// - Throws: ``BearerError/Kind/timedOut`` when no redirect came in time.
    public func waitForRedirect(timeout: Duration) async throws -> URL {
        let deadline = ContinuousClock.now.advanced(by: min(max(timeout, .zero), .seconds(86_400)))
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { [self] in
                continuation.resume(with: Result { try self.acceptUntilRedirect(deadline: deadline) })
            }
            thread.start()
        }
    }

    private func acceptUntilRedirect(deadline: ContinuousClock.Instant) throws -> URL {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                throw BearerError(
                    .timedOut,
                    "No answer came from the browser in time; run the command again and finish signing in sooner."
                )
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds: Int32 =
                left < .milliseconds(250)
                ? Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1) : 250
            guard poll(&poller, 1, milliseconds) > 0 else { continue }
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else { continue }
            defer { close(client) }
            if let redirect = handle(client) { return redirect }
        }
    }

    /// Answers one connection; returns the redirect when it was one.
    private func handle(_ client: Int32) -> URL? {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
            var yes: Int32 = 1
            setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        guard let head = readHead(client) else { return nil }
        let requestLine = head.split(separator: "\r\n", maxSplits: 1).first ?? ""
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3 else {
            respond(client, status: "400 Bad Request", body: "Bad request.")
            return nil
        }
        guard parts[0] == "GET" else {
            respond(client, status: "400 Bad Request", body: "Only the browser's redirect (GET) is accepted here.")
            return nil
        }
        let target = String(parts[1])
        let targetPath = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard targetPath == path, let url = URL(string: "http://127.0.0.1:\(port)\(target)") else {
            respond(client, status: "404 Not Found", body: "Not found.")
            return nil
        }
        respond(client, status: "200 OK", body: Self.page, contentType: "text/html; charset=utf-8")
        return url
    }

    /// Reads up to the end of the request head (16 KiB at most); `nil` when the client hung up.
    private func readHead(_ client: Int32) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 2048)
        let end: [UInt8] = [13, 10, 13, 10]
        while bytes.count < 16_384 {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            let searchStart = max(0, bytes.count - 3)
            bytes.append(contentsOf: buffer[0..<count])
            if bytes.count >= 4,
                (searchStart...(bytes.count - 4)).contains(where: { Array(bytes[$0..<($0 + 4)]) == end })
            {
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func respond(
        _ client: Int32, status: String, body: String, contentType: String = "text/plain; charset=utf-8"
    ) {
        let payload = Array(body.utf8)
        let head =
            "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nContent-Length: \(payload.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + payload
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
                let flags: Int32 = 0
            #else
                let flags = Int32(MSG_NOSIGNAL)
            #endif
            let sent = bytes[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, flags) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    private static func failure(_ action: String) -> BearerError {
        BearerError(
            .invalidConfiguration,
            "Cannot \(action): \(String(cString: strerror(errno))). Choose another port, or let the system pick one."
        )
    }
}
