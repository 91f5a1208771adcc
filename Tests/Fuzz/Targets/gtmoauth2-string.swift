// libFuzzer target: GTMOAuth2 persistence strings, both dialects, and writing them back.
import Bearer
import BearerMigration
import Foundation

private let client = Client(id: "fuzz", redirectURI: URL(fileURLWithPath: "/"))

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    _ = GTMOAuth2PersistenceString.fields(of: text)
    if let state = try? GTMOAuth2PersistenceString.decode(text, server: .google, client: client) {
        for dialect in GTMOAuth2PersistenceString.Dialect.allCases {
            let written = GTMOAuth2PersistenceString.encode(state, dialect: dialect)
            guard let again = try? GTMOAuth2PersistenceString.decode(written, server: .google, client: client),
                again.refreshToken == state.refreshToken, again.user?.email == state.user?.email
            else {
                fatalError("a decoded persistence string does not survive writing it back")
            }
        }
    }
    return 0
}
