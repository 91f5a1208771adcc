import Bearer
import Foundation
import Testing

@testable import BearerCore

/// What the tests that catch `bearer token` in the middle of a refresh share: a signed-in
/// profile, a session made stale, and the moment the tool reserves the space of its save (a `.tmp`
/// file beside the session), which it does under the session's lock just before it sends the
/// refresh. Stock django-oauth-toolkit cannot be made slow, so that moment is what a test waits for.
extension BearerTool {
    /// Signs in to the test server through the headless browser, as `bearer login` does.
    func signIn() async throws {
        let login = try await run([
            "login", "--issuer", try TestServer.issuer.absoluteString, "--allow-insecure-loopback", "--client-id",
            "bearer-public", "--scope", "openid email", "--open-with", try Browser.command,
        ])
        try #require(login.status == 0, "\(login.stderr)")
    }

    /// Makes the saved session's access token expired, so that the next `token` refreshes.
    ///
    /// - Returns: The session as it was saved.
    @discardableResult
    func expireSession() async throws -> AuthState {
        var state = try #require(try await store.load(key: "default"), "the session file is readable")
        state.accessTokenExpiresAt = Date(timeIntervalSince1970: 0)
        try await store.save(state, key: "default")
        removeReservations()
        return state
    }

    /// Refreshes with the stored refresh token here and saves the answer: the grant survived
    /// whatever the round did to the tool.
    ///
    /// - Returns: Whether the server accepted the stored refresh token; when it did not, the
    ///   issue is recorded and the grant is lost.
    func storedGrantStillRefreshes(_ stored: AuthState, round: Int) async throws -> Bool {
        let refreshed: AuthState
        do {
            refreshed = try await AuthorizationServerClient(transport: TestServer.transport).refresh(stored)
        } catch {
            Issue.record("round \(round): the stored refresh token was refused (\(error)); the grant is lost")
            return false
        }
        try await store.save(refreshed, key: "default")
        return true
    }

    /// Waits until the tool has taken the session's lock and reserved the space of its save, or
    /// has ended (on a busy machine this wait can oversleep the whole refresh).
    func waitForReservation(_ running: ChildProcess) async throws {
        for _ in 0..<10_000 {
            if !reservations.isEmpty || !running.isRunning { return }
            try await Task.sleep(for: .milliseconds(1))
        }
        Issue.record("bearer token neither took the session's lock nor ended")
    }

    /// The reservations in the config folder.
    var reservations: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: configDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".tmp") }
    }

    /// Removes the reservations of tools that a signal ended before they released them.
    func removeReservations() {
        for name in reservations {
            try? FileManager.default.removeItem(at: configDirectory.appendingPathComponent(name))
        }
    }
}
