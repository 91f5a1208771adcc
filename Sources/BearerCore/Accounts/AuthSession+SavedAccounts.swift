extension AuthSession {
    /// The sessions saved in `store`, for an account picker: each key with its user and scopes.
    /// The clients Bearer registered at servers found through resources are not sessions, and
    /// are not listed.
    /// A saved item that cannot be read is listed with its ``SavedAccount/problem`` and left as it is.
    ///
    /// ```swift
    /// for account in try await AuthSession.savedAccounts(in: store) {
    ///     print(account.key, account.user?.email ?? "unknown user")
    /// }
    /// let session = try await AuthSession.restore(key: chosen.key, from: store)
    /// ```
    ///
    /// - Parameter store: The store.
    /// - Returns: The saved sessions, sorted by key.
    /// - Throws: The store's error when it cannot be listed.
    public static func savedAccounts(in store: any SessionStore) async throws -> [SavedAccount] {
        var accounts: [SavedAccount] = []
        for key in try await store.keys() where !ResourceSessionKeys.isRegistration(key) {
            do {
                guard let state = try await store.load(key: key) else { continue }
                accounts.append(SavedAccount(key: key, state: state))
            } catch {
                accounts.append(SavedAccount(key: key, problem: error))
            }
        }
        return accounts
    }
}
