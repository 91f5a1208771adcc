import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum SilentServerError: Error { case cannotListen }

/// A server on 127.0.0.1 that reads a request and never answers it, so the request stays in
/// flight until the client gives up or the server closes.
final class SilentServer {
    let port: UInt16
    private let listener: Int32
    private var connection: Int32 = -1

    init() throws {
        #if canImport(Darwin)
            let listener = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard listener >= 0 else { throw SilentServerError.cannotListen }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            _ = close(listener)
            throw SilentServerError.cannotListen
        }
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        self.listener = listener
        self.port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        if connection >= 0 { _ = close(connection) }
        _ = close(listener)
    }

    /// The base URL of the server.
    var url: URL { Fixtures.url("http://127.0.0.1:\(port)") }

    /// Waits, for at most `seconds`, until a request's head has arrived, and returns it.
    func receivedRequestHead(within seconds: Double = 10) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = []
        while Date() < deadline {
            if connection < 0 {
                connection = accept(listener, nil, nil)
                if connection >= 0 { _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK) }
            }
            if connection >= 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                if count > 0 { received += buffer[0..<count] }
                let text = String(decoding: received, as: UTF8.self)
                if text.contains("\r\n\r\n") { return text }
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("no request arrived within \(seconds) s")
        return String(decoding: received, as: UTF8.self)
    }
}
