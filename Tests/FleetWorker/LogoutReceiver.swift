import Bearer
import BearerPostgres
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A fleet instance's back-channel logout endpoint: an HTTP/1.1 listener on 127.0.0.1 that hands
/// each request to ``BackChannelLogout/respond(to:)`` and writes its answer back, one connection at
/// a time, as a server app's route would. Each answer is traced (`logout <status>`), never a token.
enum LogoutReceiver {
    static func serve(_ logout: BackChannelLogout<PostgresSessionStore>, port: UInt16) async -> Never {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { fail("socket: \(errno)") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else { fail("cannot listen on 127.0.0.1:\(port): \(errno)") }
        trace("listening")
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            if let request = read(connection) {
                let answer = await logout.respond(to: request)
                trace("logout \(answer.status)")
                write(answer, to: connection)
            }
            close(connection)
        }
    }

    /// Reads one request: its head up to the blank line, then `Content-Length` bytes of body.
    private static func read(_ connection: Int32) -> BackChannelLogout<PostgresSessionStore>.Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var head: String?
        var bodyStart = 0
        while bytes.count < 1 << 20 {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
            if head == nil, let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) {
                head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
                bodyStart = end.upperBound
            }
            if let head {
                let length = field("content-length", in: head).flatMap { Int($0) } ?? 0
                if bytes.count - bodyStart >= length {
                    let method = String(head.prefix { $0 != " " })
                    return .init(
                        method: method, contentType: field("content-type", in: head),
                        body: Data(bytes[bodyStart..<(bodyStart + length)]))
                }
            }
        }
        return nil
    }

    private static func field(_ name: String, in head: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    private static func write(_ answer: BackChannelLogout<PostgresSessionStore>.Response, to connection: Int32) {
        var head = "HTTP/1.1 \(answer.status) \(answer.status == 200 ? "OK" : "Error")\r\n"
        for (name, value) in answer.headerFields.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(answer.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + Array(answer.body)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            sent += count
        }
    }
}
