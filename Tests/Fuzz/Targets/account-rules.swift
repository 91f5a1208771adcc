// libFuzzer target: the parser of `.bearer-account` rule files, for the profile `default`, and
// the matching of the account it names against a profile's accounts.
import BearerCommandLineCore
import Foundation

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    if let account = try? AccountRules.account(for: "default", in: text, file: "/fuzz/.bearer-account") {
        precondition(!account.isEmpty && !account.contains(" "), "a rule named an empty or spaced account")
    }
    return 0
}
