// libFuzzer target: what derived sessions read from outside (the first byte picks which): a token
// exchange's answer, an ID-JAG checked for a server and client, Google's external_account
// credentials, and the RFC 3339 times of IAM Credentials' answers.
import Bearer
import Foundation

@testable import BearerCore

private let server = AuthorizationServer(
    issuer: URL(fileURLWithPath: "/").deletingLastPathComponent(),
    authorizationEndpoint: URL(fileURLWithPath: "/authorize"), tokenEndpoint: URL(fileURLWithPath: "/token"))

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        let bytes = UnsafeRawBufferPointer(start: start, count: count)
        guard let selector = bytes.first else { return }
        let data = Data(bytes.dropFirst())
        switch selector % 4 {
        case 0:
            guard let json = try? JSONDecoder().decode([String: JSONValue].self, from: data) else { return }
            if let answer = try? TokenExchangeResponse(json: json) {
                precondition(!answer.issuedToken.value.isEmpty, "an empty issued token was taken")
                precondition(!"\(answer)".contains(answer.issuedToken.value), "a description showed the token")
            }
        case 1:
            let json: [String: JSONValue] = [
                "access_token": .string(String(decoding: data, as: UTF8.self)),
                "issued_token_type": "urn:ietf:params:oauth:token-type:id-jag", "token_type": "N_A",
            ]
            guard let answer = try? TokenExchangeResponse(json: json) else { return }
            _ = try? IdentityAssertion(
                answer, for: server, as: Client(id: "mcp-enterprise-client"), resource: nil,
                clock: .fixed(Date(timeIntervalSince1970: 1_800_000_000)))
        case 2:
            _ = try? GoogleExternalAccount(json: data, allowingInsecureLoopback: true)
        default:
            if let date = RFC3339Time.date(from: String(decoding: data, as: UTF8.self)) {
                precondition(date.timeIntervalSince1970.isFinite, "a time that is no time")
            }
        }
    }
    return 0
}
