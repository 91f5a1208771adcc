// libFuzzer target: device authorization responses (RFC 8628 §3.2).
import Bearer
import Foundation

@_spi(Internals) @testable import BearerCore

private let server = AuthorizationServer.google
private let client = Client(id: "fuzz", redirectURI: URL(fileURLWithPath: "/"))

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        guard
            let json = try? JSONDecoder().decodeRefusingDeepNesting(
                [String: JSONValue].self, from: Data(bytes: start, count: count))
        else {
            return
        }
        if let device = try? DeviceAuthorization(
            json: json,
            server: server,
            client: client,
            scopes: ["email"],
            now: Date(timeIntervalSince1970: 1_800_000_000)
        ) {
            _ = device.description
        }
    }
    return 0
}
