#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A session saved in a store, as an account picker shows it: whose it is, at which server and
/// client, and whether it is usable. It holds no token.
///
/// It is `Identifiable` by its key, so a SwiftUI `List` or `ForEach` shows an ``AccountList``'s
/// accounts as they are:
///
/// ```swift
/// List(accounts) { account in
///     Label(account.displayName, systemImage: account.isDefault ? "checkmark.circle" : "person")
/// }
/// ```
public struct SavedAccount: Sendable, Identifiable {
    /// The key the session is saved under; pass it to
    /// ``AuthSession/restore(key:from:transport:clock:configuration:)``.
    public let key: String
    /// The authorization server's issuer; `nil` when the item cannot be read.
    public let issuer: URL?
    /// The client's identifier; `nil` when the item cannot be read.
    public let clientID: String?
    /// The signed-in user, when known: the subject (`sub`) and the profile (name, e-mail, picture).
    public let user: AuthState.User?
    /// The scopes granted.
    public let grantedScopes: [String]
    /// Whether the user must sign in before the session can be used: a server said so
    /// (``AuthState/signInRequired``), or it holds no token.
    public let signInRequired: Bool
    /// Whether this is its ``AccountList``'s default account: the one chosen last with
    /// ``AccountList/makeDefault(_:clock:)``, else the one under the list's own key, else the one
    /// with the lowest key; `false` for every account while one cannot be read. Always `false` in
    /// ``AuthSession/savedAccounts(in:)``, which knows no list.
    public let isDefault: Bool
    /// Why the saved item cannot be read, when it cannot (it is left in the store).
    public let problem: (any Error)?

    /// The identity an ``AccountList`` is keyed by: ``key``.
    public var id: String { key }

    /// What a picker shows: the user's name, else the e-mail, else the subject, else the key.
    public var displayName: String {
        for candidate in [user?.name, user?.email, user?.subject] {
            if let candidate, !candidate.isEmpty { return candidate }
        }
        return key
    }

    /// An account as a list shows the session `state` saved under `key`: for previews and tests
    /// of a picker; an app gets its accounts from ``AccountList/accounts()``.
    ///
    /// - Parameters:
    ///   - key: The key the session is saved under.
    ///   - state: The session; no token of it is kept.
    ///   - isDefault: Whether it is the list's default.
    public init(key: String, state: AuthState, isDefault: Bool = false) {
        self.key = key
        self.issuer = state.server.issuer
        self.clientID = state.client.id
        self.user = state.user
        self.grantedScopes = state.grantedScopes
        self.signInRequired = !state.canAuthorize
        self.isDefault = isDefault
        self.problem = nil
    }

    init(key: String, problem: any Error) {
        self.key = key
        self.issuer = nil
        self.clientID = nil
        self.user = nil
        self.grantedScopes = []
        self.signInRequired = true
        self.isDefault = false
        self.problem = problem
    }
}
