// libFuzzer target: WWW-Authenticate challenges and Retry-After values.
import Bearer
import Foundation

@testable import BearerCore

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    _ = BearerChallenge(header: text)?.scopes
    _ = RetryAfter.delay(from: text, now: Date(timeIntervalSince1970: 1_800_000_000))
    return 0
}
