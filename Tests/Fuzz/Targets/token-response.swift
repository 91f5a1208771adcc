// libFuzzer target: token-endpoint answers (the first byte picks the HTTP status and content type).
import Bearer
import Foundation

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private let statuses = [200, 201, 400, 401, 403, 429, 500, 503]
private let contentTypes = ["application/json", "text/html", "application/json; charset=utf-8", "text/plain"]

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        let bytes = UnsafeRawBufferPointer(start: start, count: count)
        guard let selector = bytes.first else { return }
        let response = TransportResponse(
            status: statuses[Int(selector) % statuses.count],
            headerFields: [
                "Content-Type": contentTypes[Int(selector >> 3) % contentTypes.count], "Retry-After": "30",
            ],
            body: Data(bytes.dropFirst())
        )
        _ = try? TokenResponse(response: response, receivedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }
    return 0
}
