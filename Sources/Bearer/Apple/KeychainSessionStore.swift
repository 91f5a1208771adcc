#if canImport(Security)
    import Foundation
    import Security

    /// A ``SessionStore`` in the data-protection keychain (Apple platforms): one generic-password
    /// item per key, identified by the store's service and the key as its account, readable after
    /// the first unlock, on this device only.
    ///
    /// On macOS the data-protection keychain needs the `keychain-access-groups` or
    /// `application-identifier` entitlement; without one (an unsigned command-line tool) every
    /// call fails with ``BearerError/Kind/invalidConfiguration`` naming them. Such tools keep
    /// sessions in a ``FileSessionStore``.
    ///
    /// What a status means and which item a key names are decided by `KeychainItemRules`; this
    /// type only makes the `SecItem` calls.
    public struct KeychainSessionStore: SessionStore {
        /// The service of the store's items, unless another is given.
        public static let defaultService = "Bearer"

        /// The `kSecAttrService` of every item of this store; each key is an account of it.
        public let service: String
        /// The keychain access group shared with other apps of the same team, if any.
        public let accessGroup: String?

        private static let locks = AsyncKeyedLock()

        /// Creates a store.
        ///
        /// - Parameters:
        ///   - service: The service of the store's items; removing a key removes only that key's
        ///     item of this service.
        ///   - accessGroup: A keychain access group, to share sessions between apps.
        public init(service: String = KeychainSessionStore.defaultService, accessGroup: String? = nil) {
            self.service = service
            self.accessGroup = accessGroup
        }

        /// The query that names the item of `key`, and nothing else.
        private func query(for key: String) -> [String: Any] {
            let item = KeychainItemRules.Item(service: service, key: key, accessGroup: accessGroup)
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: item.service,
                kSecAttrAccount as String: item.account,
                kSecUseDataProtectionKeychain as String: true,
            ]
            if let accessGroup = item.accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        /// Reads the session saved under `key`.
        ///
        /// - Throws: ``BearerError/Kind/invalidConfiguration`` without the keychain entitlement,
        ///   ``BearerError/Kind/storageFailure`` for other keychain failures, or what
        ///   ``AuthState/init(encoded:)`` throws.
        public func load(key: String) async throws -> AuthState? {
            var query = query(for: key)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if KeychainItemRules.isAbsent(status) { return nil }
            guard status == errSecSuccess, let data = result as? Data else {
                throw KeychainItemRules.failure("read", key: key, status: status, message: Self.message(status))
            }
            return try AuthState(encoded: data)
        }

        /// Saves `state` under `key`: updates the item, adds it when it is missing, and updates it
        /// again when another process (an app extension) added it in between.
        public func save(_ state: AuthState, key: String) async throws {
            let data = try state.encoded()
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            let query = query(for: key)
            try KeychainItemRules.save(
                key: key,
                update: { SecItemUpdate(query as CFDictionary, attributes as CFDictionary) },
                add: { SecItemAdd(query.merging(attributes) { _, new in new } as CFDictionary, nil) },
                message: Self.message
            )
        }

        /// Removes the item of `key`, and no other.
        public func remove(key: String) async throws {
            let status = SecItemDelete(query(for: key) as CFDictionary)
            guard KeychainItemRules.isRemoved(status) else {
                throw KeychainItemRules.failure("remove", key: key, status: status, message: Self.message(status))
            }
        }

        /// The keys of the sessions saved in this store (its service and access group), sorted;
        /// other items of the app are never listed.
        public func keys() async throws -> [String] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecUseDataProtectionKeychain as String: true,
                kSecReturnAttributes as String: true,
                kSecMatchLimit as String: kSecMatchLimitAll,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if KeychainItemRules.isAbsent(status) { return [] }
            guard status == errSecSuccess else {
                throw KeychainItemRules.failure("list", key: service, status: status, message: Self.message(status))
            }
            let items = result as? [[String: Any]] ?? []
            return items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
        }

        /// Runs `body` while holding the lock of `key` within this process.
        public func withExclusiveAccess<Result: Sendable>(
            to key: String,
            _ body: @Sendable () async throws -> Result
        ) async throws -> Result {
            try await Self.locks.withLock(key, body)
        }

        /// The keychain's description of `status`.
        private static func message(_ status: OSStatus) -> String? {
            SecCopyErrorMessageString(status, nil) as String?
        }
    }
#endif
