import Bearer
import Foundation

/// The request the current handler serves (`<key>#<handler>.<serial>`), for the trace.
enum ServedKey {
    @TaskLocal static var current: String?
}

/// The worker's transport: `URLSessionTransport`, tracing each refresh on standard output before
/// it is sent and once it is answered (`refresh-sent <request>`, `refresh-answered <request>`), each line
/// one `write`, so that the test knows which grants had a refresh in flight when it killed the
/// worker. The trace names keys only, never a token.
struct TracingTransport: HTTPTransport {
    let base = URLSessionTransport()

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await base.send(request)
    }

    func send(_ request: TransportRequest, maximumBodySize: Int) async throws -> TransportResponse {
        let isRefresh = request.body.map { String(decoding: $0, as: UTF8.self).contains("grant_type=refresh_token") }
        guard isRefresh == true, let key = ServedKey.current else {
            return try await base.send(request, maximumBodySize: maximumBodySize)
        }
        trace("refresh-sent \(key)")
        let response = try await base.send(request, maximumBodySize: maximumBodySize)
        trace("refresh-answered \(key)")
        return response
    }
}

/// Writes `line` to standard output in one `write`.
func trace(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
