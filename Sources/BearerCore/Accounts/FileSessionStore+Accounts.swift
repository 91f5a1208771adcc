extension FileSessionStore {
    /// The accounts of the list `key`, as ``AccountList/accounts()`` lists them, read without
    /// suspending: for the tool's `accounts`, `token` and `status`, which answer without starting
    /// the concurrency runtime's threads.
    ///
    /// - Parameter key: The list's key (a profile's name).
    /// - Returns: The accounts, sorted by key.
    /// - Throws: ``BearerError/Kind/storageFailure`` when the folder cannot be listed;
    ///   ``BearerError/Kind/insecureStorage`` when a file or the folder is open to others.
    @_spi(CommandLine) public func accountsWithoutSuspending(key: String) throws -> [SavedAccount] {
        AccountList.accounts(from: try savedItemsWithoutSuspending(of: accountKeys(of: key)), listKey: key)
    }

    /// The key and the session of the account of the list `key` that `name` names (as
    /// ``AccountList/account(named:)`` finds it), else of the list's default, read without
    /// suspending and each file decoded once. A list of one account reads that one file alone.
    ///
    /// - Parameters:
    ///   - key: The list's key (a profile's name).
    ///   - name: What names the account; `nil` for the default.
    /// - Returns: The account's key and session; `key` and `nil` when the list has no account.
    /// - Throws: ``BearerError/Kind/unknownAccount`` when `name` names no account or several; the
    ///   error of the chosen account's file when it cannot be read, and without `name`, of any
    ///   account's file that cannot be read (it may be the default); as ``accountsWithoutSuspending(key:)``.
    @_spi(CommandLine) public func accountWithoutSuspending(key: String, named name: String?) throws
        -> (key: String, state: AuthState?)
    {
        let (chosen, item) = try chosenAccount(of: key, named: name)
        guard let item else { return (chosen, try loadWithoutSuspending(key: chosen)) }
        return (chosen, try item.content.get())
    }

    /// The key of the account ``accountWithoutSuspending(key:named:)`` chooses, without reading
    /// the file of a list of one account: for a command that must handle that file being unreadable.
    ///
    /// - Throws: As ``accountWithoutSuspending(key:named:)``, but never the chosen file's own error.
    @_spi(CommandLine) public func accountKeyWithoutSuspending(key: String, named name: String?) throws -> String {
        try chosenAccount(of: key, named: name).key
    }

    /// The chosen account's key, and its item when the choice had to read every file.
    private func chosenAccount(of key: String, named name: String?) throws
        -> (key: String, item: AccountList.SavedItem?)
    {
        let keys = try accountKeys(of: key)
        if name == nil, keys.count <= 1 { return (keys.first ?? key, nil) }
        let items = try savedItemsWithoutSuspending(of: keys)
        guard let name else {
            guard let chosen = try AccountList.defaultKey(of: items, listKey: key) else { return (key, nil) }
            return (chosen, items.first { $0.key == chosen })
        }
        let chosen = try AccountList.account(named: name, among: AccountList.accounts(from: items, listKey: key))
        return (chosen.key, items.first { $0.key == chosen.key })
    }

    /// The keys of the list `key`'s accounts, sorted.
    private func accountKeys(of key: String) throws -> [String] {
        try keysWithoutSuspending().filter { AccountKeys.belongs($0, to: key) }
    }

    /// The items saved under `keys`, each decoded once; a file open to others stops the listing.
    private func savedItemsWithoutSuspending(of keys: [String]) throws -> [AccountList.SavedItem] {
        var items: [AccountList.SavedItem] = []
        for candidate in keys {
            do {
                guard let state = try loadWithoutSuspending(key: candidate) else { continue }
                items.append(AccountList.SavedItem(key: candidate, content: .success(state)))
            } catch let error as BearerError where error.kind == .insecureStorage {
                throw error
            } catch {
                items.append(AccountList.SavedItem(key: candidate, content: .failure(error)))
            }
        }
        return items
    }
}
