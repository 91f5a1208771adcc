import Bearer
// The "app" or "widget" process of the shared-session test: a store over items every process
// sees (files standing in for the keychain access group) and a lock folder standing in for the
// app group's container, the store logic KeychainSessionStore runs. It restores the session,
// says it is ready, waits for the go file so that both processes hold the stale session at once,
// then asks for a token and calls the protected endpoint with it. Prints "ok <fingerprint>" (the
// first 16 hex digits of the token's SHA-256, never the token) or the error.
//
//   BearerSessionProbe --shared-items <items> <locks> <key> <offset> <url> <ready file> <go file>
@_spi(Internals) @_spi(Testing) import BearerCore
import BearerTestSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

enum SharedItemsProbe {
    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 7, let offset = TimeInterval(arguments[3]), let resource = URL(string: arguments[4])
        else {
            print("usage: BearerSessionProbe --shared-items <items> <locks> <key> <offset> <url> <ready> <go>")
            return 64
        }
        let store = ItemSessionStore(
            items: FileSessionItems(directory: URL(fileURLWithPath: arguments[0], isDirectory: true)),
            namespace: KeychainStoreNamespace.default,
            lockFolder: LockFolder(directory: URL(fileURLWithPath: arguments[1], isDirectory: true))
        )
        let clock = WallClock { Date().addingTimeInterval(offset) }
        do {
            guard let session = try await AuthSession.restore(key: arguments[2], from: store, clock: clock) else {
                print("error: no session")
                return 1
            }
            if let failure = try await readyThenWait(ready: arguments[5], go: arguments[6]) {
                print("error: \(failure)")
                return 1
            }
            let token = try await session.validAccessToken()
            let (_, response) = try await session.data(for: URLRequest(url: resource))
            guard response.statusCode == 200 else {
                print("error: HTTP \(response.statusCode)")
                return 1
            }
            print("ok \(fingerprint(token.value))")
            return 0
        } catch {
            print("error: \(error)")
            return 1
        }
    }

    /// Writes the `ready` file, then waits up to 30 s for the `go` file.
    ///
    /// - Returns: What went wrong, or `nil` once the go file is there.
    static func readyThenWait(ready: String, go: String) async throws -> String? {
        guard FileManager.default.createFile(atPath: ready, contents: Data()) else { return "cannot write \(ready)" }
        for _ in 0..<6_000 {
            if FileManager.default.fileExists(atPath: go) { return nil }
            try await Task.sleep(for: .milliseconds(5))
        }
        return "no go file"
    }

    /// The first 16 hex digits of the SHA-256 of `token`: enough to compare, nothing to reuse.
    static func fingerprint(_ token: String) -> String {
        SHA256.hash(Array(token.utf8)).prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}

/// The namespace the two processes share, as two instances of one keychain store would.
enum KeychainStoreNamespace {
    static let `default` = "Bearer\u{0}group.com.example.shared"
}
