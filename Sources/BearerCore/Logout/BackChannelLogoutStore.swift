#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``SessionStore`` that ends the sessions a provider's logout token names (OpenID Connect
/// Back-Channel Logout 1.0 §2.7), for ``BackChannelLogout``.
///
/// An ended session keeps its tokens (``AuthSession/disconnect()`` still revokes them) and is
/// marked as needing a new sign-in (``AuthState/signInRequiredError``, `login_required`): its next
/// request fails with ``BearerError/Kind/signInRequired``, and nothing refreshes it again. A new
/// sign-in under the same key replaces it.
///
/// ``InMemorySessionStore``, ``FileSessionStore`` and `KeychainSessionStore` end sessions one by
/// one and remember the tokens they accepted in memory; `PostgresSessionStore` ends them across
/// every instance of a fleet in one statement and remembers tokens in its database. A custom store
/// conforms with ``SessionStore/endSessionsOneByOne(namedBy:remembering:)``.
public protocol BackChannelLogoutStore: SessionStore {
    /// Ends every session `token` names, unless a token with its issuer and `jti` was accepted
    /// before.
    ///
    /// - Parameter token: A verified logout token.
    /// - Returns: How many sessions ended, or ``LogoutEnding/replayed``.
    /// - Throws: The store's error; the token is then not remembered, so the provider may send it
    ///   again.
    func endSessions(namedBy token: LogoutToken) async throws -> LogoutEnding
}

/// What a logout token did (``BackChannelLogoutStore/endSessions(namedBy:)``).
public enum LogoutEnding: Sendable, Hashable {
    /// The token was accepted, and ended this many sessions (none when no stored session is in the
    /// provider session or of the user it names).
    case ended(sessions: Int)
    /// A token with the same issuer and `jti` was accepted before; nothing was changed.
    case replayed
}

/// The logout tokens a store accepted, by issuer and `jti`, remembered until they expire: what
/// keeps ``SessionStore/endSessionsOneByOne(namedBy:remembering:)`` from accepting one twice.
/// It lives in memory, so a store that is shared between processes and wants replays refused
/// across them keeps tokens where they share it instead (as `PostgresSessionStore` does).
///
/// (`@unchecked`: `seen` is touched only while holding `lock`.)
public final class SeenLogoutTokens: @unchecked Sendable {
    private struct Seen: Hashable {
        let issuer: String
        let tokenID: String
    }

    private let lock = Lock()
    private var seen: [Seen: Date] = [:]

    /// Creates an empty record.
    public init() {}

    /// Records `token` until its ``LogoutToken/rememberedUntil`` unless it is recorded already;
    /// forgets tokens no check accepts any more, by the receiver's clock.
    ///
    /// - Parameter token: A verified logout token.
    /// - Returns: `true` when it was not recorded before.
    func record(_ token: LogoutToken) -> Bool {
        let entry = Seen(issuer: token.issuer, tokenID: token.tokenID)
        return lock.withLock {
            seen = seen.filter { $0.value > token.checkedAt }
            return seen.updateValue(token.rememberedUntil, forKey: entry) == nil
        }
    }

    /// Forgets `token`, whose sessions could not all be ended, so that it may come again.
    func forget(_ token: LogoutToken) {
        let entry = Seen(issuer: token.issuer, tokenID: token.tokenID)
        lock.withLock { _ = seen.removeValue(forKey: entry) }
    }
}

extension SessionStore {
    /// Ends the sessions `token` names one by one, each under its key's lock: reads every stored
    /// session, and marks those it names as needing a new sign-in (their tokens are kept). A session
    /// that cannot be read is left as it is and not counted.
    ///
    /// - Parameters:
    ///   - token: A verified logout token.
    ///   - seen: The tokens this store accepted before.
    /// - Returns: How many sessions ended, or ``LogoutEnding/replayed``.
    /// - Throws: The store's error when it cannot be listed or a session cannot be saved; the token is
    ///   then forgotten, so that the provider's next try is accepted.
    public func endSessionsOneByOne(namedBy token: LogoutToken, remembering seen: SeenLogoutTokens) async throws
        -> LogoutEnding
    {
        guard seen.record(token) else { return .replayed }
        do {
            var ended = 0
            for key in try await keys() {
                guard let stored = try? await load(key: key), token.ends(stored) else { continue }
                let didEnd = try await withExclusiveAccess(to: key) { access in
                    guard let current = try await access.load(), token.ends(current) else { return false }
                    guard current.signInRequiredError == nil else { return true }
                    try await access.save(current.endedAtProvider(), replacing: current)
                    return true
                }
                if didEnd { ended += 1 }
            }
            return .ended(sessions: ended)
        } catch {
            seen.forget(token)
            throw error
        }
    }
}
