// libFuzzer target: GoogleSignIn's legacy items (fingerprint, persistence string, ~~atrp),
// separated by NUL bytes in the input.
import BearerMigration
import Foundation

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let parts = UnsafeRawBufferPointer(start: start, count: count)
        .split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    guard parts.count >= 3 else { return 0 }
    _ = GoogleSignInLegacy.clientID(inFingerprint: parts[0], bundleID: parts[1])
    _ = try? GoogleSignInLegacy.decode(
        fingerprint: parts[0],
        bundleID: parts[1],
        persistenceString: parts[2],
        additionalParameters: parts.count > 3 ? parts[3] : nil
    )
    return 0
}
