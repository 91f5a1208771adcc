/// The keychain access group that every query of a ``KeychainSessionStore`` names.
///
/// A keychain query without `kSecAttrAccessGroup` matches items in every access group the app
/// belongs to. A store made without a group would then read, overwrite and delete the items that a
/// store sharing sessions with the app's extensions keeps under the same service and key, and lock
/// them under another name. So a store without a configured group scopes itself to the app's
/// default group (the first of its `keychain-access-groups`, else its application identifier):
/// the keychain tells it by the group it gives a throwaway item added without one. The default
/// group is found once per process; a failed probe is not remembered, so the next call asks again.
@_spi(Bridge) public final class KeychainAccessGroup: @unchecked Sendable {
    // Unchecked: `found` is only read and written under `lock`.
    private let lock = Lock()
    private var found: String?

    /// The app's default access group, shared by every store of the process.
    @_spi(Bridge) public static let appDefault = KeychainAccessGroup()

    /// Creates an empty cache; tests make their own, the store uses ``appDefault``.
    init() {}

    /// The access group of a store's items: `configured` when the store has one, else the app's
    /// default group, asked of `probe` the first time only.
    ///
    /// - Parameters:
    ///   - configured: The store's `accessGroup`, if one was given.
    ///   - probe: Adds a throwaway item without an access group, removes it, and returns the group
    ///     the keychain put it in (`nil` when the answer named none).
    /// - Returns: The group to name in every query.
    /// - Throws: What `probe` throws; ``BearerError/Kind/storageFailure`` when the keychain named
    ///   no group, since a query without one would reach other groups' items.
    @_spi(Bridge) public func resolve(configured: String?, probe: () throws -> String?) throws -> String {
        if let configured { return configured }
        return try lock.withLock {
            if let found { return found }
            guard let group = try probe(), !group.isEmpty else {
                throw BearerError.storageFailure(
                    "The keychain did not say which access group the app's items are in, so the session store "
                        + "cannot keep to its own items; give KeychainSessionStore an accessGroup explicitly."
                )
            }
            found = group
            return group
        }
    }
}
