/// The accounts an app or a tool keeps under one key: several users of a client (work and
/// personal, a test account beside a real one), each a session of its own, listed for a
/// picker and chosen per call.
///
/// An account is a user (issuer and subject, else e-mail) of one client at one server. Signing a
/// second user in never replaces the first; signing the same user in again updates that one's
/// session. Getting a token for an account never changes which one is the default, so tasks and
/// processes using different accounts at once never see each other's tokens:
///
/// ```swift
/// let accounts = AccountList(store: store)
/// _ = try await accounts.signIn(to: server, as: client, scopes: ["openid", "email"], using: agent, transport: transport)
/// for account in try await accounts.accounts() {
///     print(account.displayName, account.isDefault ? "(default)" : "", account.signInRequired ? "(sign in again)" : "")
/// }
/// let work = try await accounts.account(named: "ada@work.example")
/// let data = try await accounts.session(for: work, transport: transport).data(for: request)
/// ```
///
/// The first account is saved under ``key`` itself, where a single session always was; the
/// others under `key+<16 hexadecimal digits>`, a hash of their server, client and user. Any
/// ``SessionStore`` holds them; a store that looks keys up by prefix in an index (the PostgreSQL
/// store) lists them without reading other keys.
public struct AccountList: Sendable {
    /// Where the accounts' sessions are saved.
    public let store: any SessionStore
    /// The key the accounts share: the first account's key, and the start of the others'.
    public let key: String

    /// The accounts saved under `key` in `store`.
    ///
    /// - Parameters:
    ///   - store: Where the sessions are saved.
    ///   - key: The key they share: `"default"`, a profile's name, or in a server, the key of one
    ///     of the app's own users.
    public init(store: any SessionStore, key: String = "default") {
        self.store = store
        self.key = key
    }

    /// The accounts, sorted by key (the one under the list's own key first), each with its user's
    /// profile, whether it needs a new sign-in, and whether it is the default. An item that
    /// cannot be read is listed with its ``SavedAccount/problem`` and left as it is; while one is,
    /// no account is marked the default, since the unreadable one may be it.
    ///
    /// - Returns: The accounts; empty when none is saved.
    /// - Throws: The store's error when it cannot be listed; ``BearerError/Kind/insecureStorage``
    ///   when an item is readable or replaceable by others (nothing is listed from such a store).
    public func accounts() async throws -> [SavedAccount] {
        Self.accounts(from: try await savedItems(), listKey: key)
    }

    /// The accounts that `saved`, the items of the list `listKey`, hold.
    static func accounts(from saved: [SavedItem], listKey: String) -> [SavedAccount] {
        let chosen = try? defaultKey(of: saved, listKey: listKey)
        return saved.map { item in
            switch item.content {
            case .success(let state): SavedAccount(key: item.key, state: state, isDefault: item.key == chosen)
            case .failure(let problem): SavedAccount(key: item.key, problem: problem)
            }
        }
    }

    /// The default account: the one chosen last with ``makeDefault(_:clock:)``, else the one
    /// under the list's own key (the first signed in), else the one with the lowest key.
    ///
    /// - Returns: The account, or `nil` when none is saved.
    /// - Throws: The error of an item that cannot be read, which may be the default (nothing
    ///   else is taken for it: name an account instead, or repair or remove that item); the
    ///   store's error when it cannot be listed.
    public func defaultAccount() async throws -> SavedAccount? {
        let saved = try await savedItems()
        guard let chosen = try Self.defaultKey(of: saved, listKey: key) else { return nil }
        return Self.accounts(from: saved, listKey: key).first { $0.key == chosen }
    }

    /// The key of the default among `saved`, as ``defaultAccount()`` chooses it.
    ///
    /// - Throws: The error of an unreadable item, which may be the default.
    static func defaultKey(of saved: [SavedItem], listKey: String) throws -> String? {
        for item in saved {
            guard case .failure(let problem) = item.content else { continue }
            throw BearerError.unknownAccount(
                "The account saved under \(item.key) cannot be read, and it may be the default, so no other is "
                    + "taken for it: name the account to use, or repair or remove that one (\(problem)).",
                underlyingError: problem)
        }
        return AccountChoice.defaultKey(among: readable(saved), listKey: listKey)
    }

    /// The one account that `name` names: its key, its user's e-mail (in any case), its subject or
    /// its user's name, tried in that order.
    ///
    /// - Parameter name: What the user typed or the app kept.
    /// - Returns: The account.
    /// - Throws: ``BearerError/Kind/unknownAccount`` when no account or several match, naming the
    ///   accounts there are; the store's error when it cannot be listed.
    public func account(named name: String) async throws -> SavedAccount {
        try Self.account(named: name, among: try await accounts())
    }

    /// The one account of `accounts` that `name` names, as ``account(named:)`` finds it.
    ///
    /// - Throws: ``BearerError/Kind/unknownAccount`` when none or several match.
    @_spi(CommandLine) public static func account(named name: String, among accounts: [SavedAccount]) throws
        -> SavedAccount
    {
        let tests: [(SavedAccount) -> Bool] = [
            { $0.key == name },
            { $0.user?.email?.lowercased() == name.lowercased() },
            { $0.user?.subject == name },
            { $0.user?.name == name },
        ]
        for test in tests {
            let matches = accounts.filter(test)
            if matches.count == 1, let match = matches.first { return match }
            if matches.count > 1 {
                throw BearerError.unknownAccount(
                    "\(matches.count) accounts match \"\(name)\" (\(Self.names(of: matches))); name one by its e-mail or key."
                )
            }
        }
        let known = accounts.isEmpty ? "none is saved" : "the accounts are \(Self.names(of: accounts))"
        throw BearerError.unknownAccount("No account matches \"\(name)\": \(known). Sign it in first.")
    }

    /// The saved account of the user of `state` (the same server, client and user), if any: the
    /// one ``add(_:makingDefault:clock:)`` would update.
    ///
    /// - Parameter state: A session.
    /// - Returns: The account, or `nil` when the user has none in the list.
    /// - Throws: The store's error when it cannot be listed.
    public func account(of state: AuthState) async throws -> SavedAccount? {
        let saved = try await savedItems()
        guard let same = Self.readable(saved).first(where: { AccountKeys.isSameAccount($0.state, state) }) else {
            return nil
        }
        return Self.accounts(from: saved, listKey: key).first { $0.key == same.key }
    }

    /// Whether `key` is shaped as an account's own key (`LIST+<16 hexadecimal digits>`), which
    /// an ``AccountList`` of `LIST` counts as its own: a list's key must not be.
    @_spi(CommandLine) public static func isAccountKey(_ key: String) -> Bool {
        AccountKeys.isOwnKey(key)
    }

    /// `accounts` for a message: each one's e-mail or name, and its key.
    @_spi(CommandLine) public static func names(of accounts: [SavedAccount]) -> String {
        accounts.map { account in
            let name = account.user?.email ?? account.displayName
            return name == account.key ? name : "\(name) [\(account.key)]"
        }.joined(separator: ", ")
    }

    /// A saved item of the list: its state, or why it cannot be read.
    struct SavedItem {
        let key: String
        let content: Result<AuthState, any Error>
    }

    /// The items of `saved` that could be read.
    static func readable(_ saved: [SavedItem]) -> [(key: String, state: AuthState)] {
        saved.compactMap { item in (try? item.content.get()).map { (key: item.key, state: $0) } }
    }

    /// The list's saved items, sorted by key.
    func savedItems() async throws -> [SavedItem] {
        var items: [SavedItem] = []
        for candidate in try await store.keys(startingWith: key) where AccountKeys.belongs(candidate, to: key) {
            do {
                guard let state = try await store.load(key: candidate) else { continue }
                items.append(SavedItem(key: candidate, content: .success(state)))
            } catch let error as BearerError where error.kind == .insecureStorage {
                // A store others may read or change is not listed from: what it holds cannot be trusted.
                throw error
            } catch {
                items.append(SavedItem(key: candidate, content: .failure(error)))
            }
        }
        return items.sorted { $0.key < $1.key }
    }
}
