import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy of the tests' own between the store and the test server's Unix socket, on
/// 127.0.0.1, that can do to the store what networks and attackers do: stop passing bytes
/// (a stalled network), reset every connection (a failover, a NAT that forgot the flow), or
/// answer a TLS request with "no TLS" itself, as a man in the middle that strips TLS does.
final class FaultProxy: @unchecked Sendable {
    /// What the proxy does to the bytes it carries.
    enum Mode: Sendable {
        /// Pass every byte both ways.
        case passing
        /// Pass nothing, and keep every connection open.
        case stalled
    }

    /// The port on 127.0.0.1 the proxy listens on.
    let port: UInt16
    /// Whether the proxy answers a client's TLS request with "no TLS" itself.
    let stripsTLS: Bool
    private let target: String
    private let listener: Int32
    // Guarded by `lock`.
    private let lock = NSLock()
    private var mode = Mode.passing
    private var sockets: [Int32] = []
    private var refusedTLSRequests = 0
    private var bytesAfterRefusal = 0
    private var stopped = false

    /// Starts a proxy to the Unix socket of `server`.
    init(to server: PostgresTestServer, strippingTLS: Bool = false) throws {
        target = server.directory.appendingPathComponent(".s.PGSQL.5432").path
        stripsTLS = strippingTLS
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 64) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { throw PostgresTestServer.Failure(description: "the proxy could not listen") }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// A libpq connection string through the proxy; `options` adds settings (`sslmode=disable`).
    func connectionString(_ options: String = "") -> String {
        "host=127.0.0.1 port=\(port) user=bearer dbname=postgres connect_timeout=2 \(options)"
    }

    /// Switches what the proxy does from now on.
    func set(_ mode: Mode) { lock.withLock { self.mode = mode } }

    /// Resets every connection the proxy carries (RST to both sides); new ones are carried.
    func resetConnections() {
        let open = lock.withLock {
            defer { sockets = [] }
            return sockets
        }
        for descriptor in open {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            shutdown(descriptor, Int32(SHUT_RDWR))
            close(descriptor)
        }
    }

    /// How many TLS requests the proxy answered "no TLS", and how many bytes clients sent after
    /// such an answer (a client that refuses to go on sends none).
    var tlsRefusals: (requests: Int, bytesAfter: Int) { lock.withLock { (refusedTLSRequests, bytesAfterRefusal) } }

    /// Stops listening and resets every connection.
    func stop() {
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        resetConnections()
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            if lock.withLock({ stopped }) {
                close(client)
                return
            }
            let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in target.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
                }
            }
            guard connected else {
                close(client)
                close(server)
                continue
            }
            lock.withLock { sockets += [client, server] }
            Thread.detachNewThread { [self] in
                var refused = false
                if stripsTLS {
                    guard let answer = refuseTLS(from: client, passingOtherwiseTo: server) else { return }
                    refused = answer
                }
                pump(from: client, to: server, countingAfterRefusal: refused)
            }
            Thread.detachNewThread { [self] in pump(from: server, to: client, countingAfterRefusal: false) }
        }
    }

    /// Reads the client's first message; a TLS (or GSSAPI encryption) request is answered "N"
    /// here, as a man in the middle would, and anything else is passed on to `server`. Returns
    /// whether it refused, or `nil` when the connection ended.
    private func refuseTLS(from client: Int32, passingOtherwiseTo server: Int32) -> Bool? {
        var header = [UInt8](repeating: 0, count: 8)
        guard recv(client, &header, 8, Int32(MSG_WAITALL)) == 8 else { return nil }
        let code = header[4...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard code == 80_877_103 || code == 80_877_104 else {
            return send(server, header, 8, Int32(MSG_NOSIGNAL)) == 8 ? false : nil
        }
        lock.withLock { refusedTLSRequests += 1 }
        return send(client, "N", 1, Int32(MSG_NOSIGNAL)) == 1 ? true : nil
    }

    private func pump(from source: Int32, to destination: Int32, countingAfterRefusal: Bool) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = recv(source, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            // A stalled network delivers nothing: what arrives is held until it passes again.
            while lock.withLock({ mode == .stalled && !stopped }) { usleep(10_000) }
            if countingAfterRefusal { lock.withLock { bytesAfterRefusal += count } }
            guard send(destination, buffer, count, Int32(MSG_NOSIGNAL)) == count else { break }
        }
        shutdown(destination, Int32(SHUT_WR))
    }
}
