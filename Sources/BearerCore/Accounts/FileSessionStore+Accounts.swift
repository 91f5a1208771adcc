extension FileSessionStore {
    /// The accounts of the list `key`, as ``AccountList/accounts()`` lists them, read without
    /// suspending: for the tool's `token` and `status`, which answer without starting the
    /// concurrency runtime's threads.
    ///
    /// - Parameter key: The list's key (a profile's name).
    /// - Returns: The accounts, sorted by key.
    /// - Throws: ``BearerError/Kind/storageFailure`` when the folder cannot be listed;
    ///   ``BearerError/Kind/insecureStorage`` when a file or the folder is open to others.
    @_spi(CommandLine) public func accountsWithoutSuspending(key: String) throws -> [SavedAccount] {
        var items: [AccountList.SavedItem] = []
        for candidate in try keysWithoutSuspending() where AccountKeys.belongs(candidate, to: key) {
            do {
                guard let state = try loadWithoutSuspending(key: candidate) else { continue }
                items.append(AccountList.SavedItem(key: candidate, content: .success(state)))
            } catch let error as BearerError where error.kind == .insecureStorage {
                throw error
            } catch {
                items.append(AccountList.SavedItem(key: candidate, content: .failure(error)))
            }
        }
        return AccountList.accounts(from: items, listKey: key)
    }
}
