#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket calls of the loopback listener: bind 127.0.0.1, poll, accept without blocking.
enum LoopbackSocket {
    /// Binds and listens on 127.0.0.1:`port` (0 for any free port).
    ///
    /// - Returns: The listening descriptor and the port it is bound to.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the port cannot be bound.
    static func bindListener(port: UInt16) throws -> (descriptor: Int32, port: UInt16) {
        #if canImport(Darwin)
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw failure("create a socket") }
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
        guard bound == 0, listen(descriptor, 128) == 0, setNonBlocking(descriptor) else {
            let error = failure("listen on 127.0.0.1:\(port)")
            close(descriptor)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            close(descriptor)
            throw failure("read the listening port")
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    /// Waits until the listener or a connection is readable, or `timeout` passes.
    ///
    /// - Returns: Whether the listener is readable, and the readable connections.
    static func waitForReadable(
        listener: Int32,
        connections: [Int32],
        timeout: Duration
    ) -> (listener: Bool, connections: Set<Int32>) {
        var descriptors = ([listener] + connections).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(clamping: max(seconds * 1000 + attoseconds / 1_000_000_000_000_000, 0) + 1)
        let count = descriptors.withUnsafeMutableBufferPointer {
            poll($0.baseAddress, nfds_t($0.count), milliseconds)
        }
        guard count > 0 else { return (false, []) }
        let readable = descriptors.dropFirst().filter { $0.revents != 0 }.map(\.fd)
        return (descriptors[0].revents != 0, Set(readable))
    }

    /// Accepts one waiting connection, made non-blocking; `nil` when none is waiting.
    static func acceptConnection(_ listener: Int32) -> Int32? {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return nil }
        guard setNonBlocking(client) else {
            close(client)
            return nil
        }
        #if canImport(Darwin)
            var yes: Int32 = 1
            setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return client
    }

    /// Makes `descriptor` non-blocking and closed on exec, so no child process inherits the port.
    private static func setNonBlocking(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        let descriptorFlags = fcntl(descriptor, F_GETFD)
        return flags >= 0 && fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0
            && descriptorFlags >= 0 && fcntl(descriptor, F_SETFD, descriptorFlags | FD_CLOEXEC) == 0
    }

    private static func failure(_ action: String) -> BearerError {
        BearerError.invalidConfiguration(
            "Cannot \(action): \(String(cString: strerror(errno))). Choose another port, or let the system pick one."
        )
    }
}

/// One connection to the listener: what it has sent so far, and when it was accepted.
final class LoopbackConnection {
    /// What a read produced.
    enum Read {
        /// The request head is not complete yet.
        case incomplete
        /// The request head, up to the blank line (or the first ``LoopbackRequest/maximumHeadSize`` bytes).
        case head(String)
        /// The client hung up before sending a whole head.
        case closed
    }

    /// How long a connection may stay silent before it is closed.
    static let silenceTimeout: Duration = .seconds(1)
    /// How long a connection may take to send its whole request.
    static let requestTimeout: Duration = .seconds(5)

    let descriptor: Int32
    let openedAt: ContinuousClock.Instant
    private var bytes: [UInt8] = []

    /// Whether the connection has sent nothing for ``silenceTimeout``, or no whole request within
    /// ``requestTimeout``: a browser sends its request at once.
    func hasExpired(at now: ContinuousClock.Instant) -> Bool {
        let age = openedAt.duration(to: now)
        return age > Self.requestTimeout || (bytes.isEmpty && age > Self.silenceTimeout)
    }

    init(descriptor: Int32, openedAt: ContinuousClock.Instant) {
        self.descriptor = descriptor
        self.openedAt = openedAt
    }

    /// Reads what the client has sent, without waiting.
    func read() -> Read {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .incomplete : .closed }
        if count == 0 { return .closed }
        let searchStart = max(0, bytes.count - 3)
        bytes.append(contentsOf: buffer[0..<count])
        if bytes.count >= LoopbackRequest.maximumHeadSize {
            return .head(String(decoding: bytes.prefix(LoopbackRequest.maximumHeadSize), as: UTF8.self))
        }
        let end: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4,
            let found = (searchStart...(bytes.count - 4)).first(where: { bytes[$0..<($0 + 4)].elementsEqual(end) })
        else { return .incomplete }
        return .head(String(decoding: bytes[..<found], as: UTF8.self))
    }

    /// Sends a short answer and asks the client to close (a full socket buffer drops the rest).
    func respond(
        status: String, body: String, contentType: String = "text/plain; charset=utf-8", location: URL? = nil
    ) {
        let payload = Array(body.utf8)
        let head =
            "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nContent-Length: \(payload.count)\r\n"
            + (location.map { "Location: \($0.absoluteString)\r\n" } ?? "")
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        let message = Array(head.utf8) + payload
        #if canImport(Darwin)
            let flags: Int32 = 0
        #else
            let flags = Int32(MSG_NOSIGNAL)
        #endif
        var offset = 0
        while offset < message.count {
            let sent = message[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    func close() {
        closeDescriptor(descriptor)
    }
}

/// Closes `descriptor`; a free function, since `close` inside the types above names their own method.
func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
