import Bearer
import BearerTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RecordingTransport.Reply {
    func withHeader(_ name: String, _ value: String) -> RecordingTransport.Reply {
        guard case .response(let status, var headers, let body) = self else { return self }
        headers[name] = value
        return .response(status: status, headers: headers, body: body)
    }
}
