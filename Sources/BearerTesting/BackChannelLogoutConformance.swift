public import Bearer
@_spi(Testing) import BearerCore
import Foundation

/// Checks that a ``BackChannelLogoutStore`` ends what a logout token names and nothing else: for an
/// app's own store, as `SessionStoreConformance` checks the rest of it.
///
/// ```swift
/// @Test func logout() async throws {
///     try await BackChannelLogoutConformance(sharedAcrossInstances: true) { try await RedisSessionStore.test() }
///         .verify()
/// }
/// ```
///
/// It saves sessions under keys of its own (`logout-conformance-…`) and removes them after. The
/// rules:
/// - a token naming a provider session ends that session only, and its tokens stay stored;
/// - the same token again is ``LogoutEnding/replayed``, at another instance too when the store is
///   shared across instances;
/// - a token naming only a user ends all of that user's sessions;
/// - a save over an ended session (a new sign-in) is not ended.
public struct BackChannelLogoutConformance<Store: BackChannelLogoutStore>: Sendable {
    /// The rules the store broke, each with what was seen.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// One line per broken rule.
        public let brokenRules: [String]

        /// The rules, one per line.
        public var description: String {
            "The store broke \(brokenRules.count) rule(s) of BackChannelLogoutStore:\n"
                + brokenRules.joined(separator: "\n")
        }
    }

    let makeStore: @Sendable () async throws -> Store
    let sharedAcrossInstances: Bool

    /// Creates the checks.
    ///
    /// - Parameters:
    ///   - sharedAcrossInstances: Whether two stores `makeStore` makes share their sessions and
    ///     logout tokens (a database): the replay is then tried at the second.
    ///   - makeStore: Makes a store, empty or not.
    public init(sharedAcrossInstances: Bool = false, makeStore: @escaping @Sendable () async throws -> Store) {
        self.makeStore = makeStore
        self.sharedAcrossInstances = sharedAcrossInstances
    }

    /// Runs the checks.
    ///
    /// - Throws: ``Failure`` listing every broken rule; the store's error when it cannot be made.
    public func verify() async throws {
        let store = try await makeStore()
        let other = sharedAcrossInstances ? try await makeStore() : store
        let run = "logout-conformance-" + UUID().uuidString.prefix(8).lowercased()
        let server = try SessionStoreConformance<Store>.server
        let issuer = server.issuer.absoluteString
        let (user, otherUser) = (run + "-user", run + "-other-user")
        let sessions = [
            ("first", user, run + "-sid-1"), ("second", user, run + "-sid-2"), ("other", otherUser, run + "-sid-3"),
        ]
        for (name, subject, sid) in sessions {
            var state = try SessionStoreConformance<Store>.session(name)
            state.user = AuthState.User(subject: subject)
            state.providerSessionID = sid
            try await store.save(state, key: run + "-" + name)
        }
        func token(subject: String?, sid: String?) -> LogoutToken {
            LogoutToken(
                issuer: issuer, audience: ["conformance-client"], subject: subject, sessionID: sid,
                tokenID: UUID().uuidString, issuedAt: Date())
        }
        func ended() async throws -> [String] {
            var names: [String] = []
            for (name, _, _) in sessions where try await store.load(key: run + "-" + name)?.signInRequiredError != nil {
                names.append(name)
            }
            return names
        }
        var broken: [String] = []
        do {
            let bySession = token(subject: user, sid: run + "-sid-1")
            let first = try await store.endSessions(namedBy: bySession)
            let endedFirst = try await ended()
            if first != .ended(sessions: 1) || endedFirst != ["first"] {
                broken.append("a provider session: answered \(first), ended \(endedFirst), not only first")
            }
            if try await store.load(key: run + "-first")?.refreshToken == nil {
                broken.append("a provider session: the ended session's refresh token is gone; it must stay stored")
            }
            let replay = try await other.endSessions(namedBy: bySession)
            if replay != .replayed {
                broken.append("replay: the same token again answered \(replay), not replayed")
            }
            let byUser = try await store.endSessions(namedBy: token(subject: user, sid: nil))
            let endedUser = try await ended()
            if byUser != .ended(sessions: 2) || endedUser != ["first", "second"] {
                broken.append("a user: answered \(byUser), ended \(endedUser), not first and second")
            }
            var signedIn = try SessionStoreConformance<Store>.session("new")
            signedIn.user = AuthState.User(subject: user)
            signedIn.providerSessionID = run + "-sid-new"
            try await store.save(signedIn, key: run + "-first")
            if try await store.load(key: run + "-first")?.signInRequiredError != nil {
                broken.append("a new sign-in: a save over the ended session is still ended")
            }
        } catch {
            broken.append("unexpected error \(error)")
        }
        for (name, _, _) in sessions { try? await store.remove(key: run + "-" + name) }
        guard broken.isEmpty else { throw Failure(brokenRules: broken) }
    }
}
