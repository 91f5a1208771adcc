import Bearer
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Server/dpop_resource.py, the independent DPoP proof verifier, on Debian's python3 and
/// python3-cryptography, started for one test suite.
final class DPoPResource: Sendable {
    private let script: ServerScript
    /// The server's base URL.
    var base: URL { script.base }

    /// Debian's python3, whose python3-cryptography the verifier uses.
    static let python = URL(fileURLWithPath: "/usr/bin/python3")

    init(arguments: [String] = []) async throws {
        script = try await ServerScript("dpop_resource.py", python: Self.python, arguments: arguments)
    }

    /// A resource URL under `/resource`.
    func url(_ path: String = "/resource") throws -> URL {
        try #require(URL(string: base.absoluteString + path))
    }

    /// One verified request, as the verifier logged it.
    struct Verification: Sendable {
        var status: Int
        var method: String
        var failed: String?
        var jkt: String?
        var nonceUsed: Bool
    }

    /// What the verifier logged, in order.
    func log() async throws -> [Verification] {
        let (data, _) = try await TestServer.transport.send(URLRequest(url: try url("/log")))
        let object = try JSONDecoder().decode([String: JSONValue].self, from: data)
        guard case .array(let entries)? = object["verified"] else { return [] }
        return entries.compactMap { entry in
            guard case .object(let fields) = entry else { return nil }
            return Verification(
                status: Int(fields["status"]?.numberValue ?? 0), method: fields["method"]?.stringValue ?? "",
                failed: fields["failed"]?.stringValue, jkt: fields["jkt"]?.stringValue,
                nonceUsed: fields["nonce_used"]?.boolValue ?? false)
        }
    }
}
