import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(Internals) @_spi(Testing) @testable import BearerCore

/// An app and its widget sharing one session, as `KeychainSessionStore` with an app group shares
/// it: two processes over one set of items (files standing in for the keychain access group) and
/// one lock folder (standing in for the app group's container), both holding the stale session
/// when they ask for a token, against a server whose refresh tokens rotate with reuse protection.
/// Its client is its own, so that the refresh count is not shared with suites running beside it.
@Suite(
    "End to end: an app and its widget share one session", .serialized,
    .enabled(if: TestServer.isConfigured, TestServer.skipReason))
struct SharedSessionEndToEndTests {
    private let client = "bearer-shared"

    @Test("The app and the widget ask at once for a stale session: one refresh, the same new token, the grant valid")
    func appAndWidgetRefreshOnce() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-shared-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let items = root.appendingPathComponent("items")
        let locks = root.appendingPathComponent("locks")
        let store = ItemSessionStore(
            items: FileSessionItems(directory: items),
            namespace: "Bearer\u{0}group.com.example.shared",
            lockFolder: LockFolder(directory: locks)
        )
        let state = try await TestServer.signIn(client: client)
        try await store.save(state, key: "shared")
        let probe = try ProbeProcess.executable()
        let resource = try TestServer.url("/drive/v3/about?fields=user").absoluteString
        let before = try await TestServer.tokenRequests(client: client, grantType: "refresh_token")

        let go = root.appendingPathComponent("go").path
        let ready = ["app", "widget"].map { root.appendingPathComponent("\($0).ready").path }
        let processes = try ready.map { readyFile in
            try ProbeProcess(
                probe,
                arguments: [
                    "--shared-items", items.path, locks.path, "shared", String(2 * 3600), resource, readyFile, go,
                ]
            )
        }
        // Both have restored the stale session before either asks for a token.
        try await waitUntil { ready.allSatisfy { FileManager.default.fileExists(atPath: $0) } }
        #expect(FileManager.default.createFile(atPath: go, contents: Data()))
        let outputs = try await ProbeProcess.outputs(of: processes)

        for (role, output) in zip(["app", "widget"], outputs) {
            #expect(output.status == 0 && output.text.hasPrefix("ok "), "\(role): \(output.text)")
        }
        let fingerprints = Set(outputs.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(fingerprints.count == 1, "both processes use the same new access token")
        #expect(try await TestServer.tokenRequests(client: client, grantType: "refresh_token") == before + 1)

        let stored = try #require(try await store.load(key: "shared"))
        #expect(stored.refreshToken != state.refreshToken)
        #expect(stored.accessToken != state.accessToken)
        #expect(!stored.signInRequired)
        #expect(fingerprints == ["ok " + fingerprint(try #require(stored.accessToken).value)])
        // The grant is still valid: its current refresh token refreshes (a replayed one would
        // have revoked the whole family).
        let next = try await AuthorizationServerClient(transport: TestServer.transport).refresh(stored)
        #expect(next.accessToken != nil)
    }

    private func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<6_000 where !condition() {
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(condition(), "the probes did not get ready")
    }

    private func fingerprint(_ token: String) -> String {
        SHA256.hash(Array(token.utf8)).prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}
