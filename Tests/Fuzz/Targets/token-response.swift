// libFuzzer target: token-endpoint answers (the first byte picks the HTTP status and content type).
import Bearer
import Foundation

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
        guard let selector = bytes.first, let url = URL(string: "https://auth.example.com/token") else { return }
        guard
            let response = HTTPURLResponse(
                url: url,
                statusCode: statuses[Int(selector) % statuses.count],
                httpVersion: "HTTP/1.1",
                headerFields: [
                    "Content-Type": contentTypes[Int(selector >> 3) % contentTypes.count], "Retry-After": "30",
                ]
            )
        else { return }
        _ = try? TokenResponse(
            data: Data(bytes.dropFirst()),
            response: response,
            receivedAt: Date(timeIntervalSince1970: 1_800_000_000)
        )
    }
    return 0
}
