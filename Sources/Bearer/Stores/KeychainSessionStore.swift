#if canImport(Security)
    import Foundation
    import Security

    /// A ``SessionStore`` in the data-protection keychain (Apple platforms): one generic-password
    /// item per key (service = key), readable after the first unlock, on this device only.
    public struct KeychainSessionStore: SessionStore {
        /// The keychain access group shared with other apps of the same team, if any.
        public let accessGroup: String?

        private static let locks = AsyncKeyedLock()

        /// Creates a store.
        ///
        /// - Parameter accessGroup: A keychain access group, to share sessions between apps.
        public init(accessGroup: String? = nil) {
            self.accessGroup = accessGroup
        }

        private func query(for key: String) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: key,
                kSecUseDataProtectionKeychain as String: true,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        /// Reads the session saved under `key`.
        public func load(key: String) async throws -> AuthState? {
            var query = query(for: key)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else {
                throw Self.failure("read", key, status)
            }
            return try AuthState(encoded: data)
        }

        /// Saves `state` under `key`, replacing the item in one keychain call.
        public func save(_ state: AuthState, key: String) async throws {
            let data = try state.encoded()
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            let status = SecItemUpdate(query(for: key) as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                let added = SecItemAdd(query(for: key).merging(attributes) { _, new in new } as CFDictionary, nil)
                guard added == errSecSuccess else { throw Self.failure("add", key, added) }
            } else if status != errSecSuccess {
                throw Self.failure("update", key, status)
            }
        }

        /// Removes every item of `key`.
        public func remove(key: String) async throws {
            let status = SecItemDelete(query(for: key) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw Self.failure("remove", key, status)
            }
        }

        /// The keys of the sessions saved in this store (its access group), sorted.
        public func keys() async throws -> [String] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecUseDataProtectionKeychain as String: true,
                kSecReturnAttributes as String: true,
                kSecMatchLimit as String: kSecMatchLimitAll,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return [] }
            guard status == errSecSuccess else { throw Self.failure("list", "items", status) }
            let items = result as? [[String: Any]] ?? []
            return items.compactMap { $0[kSecAttrService as String] as? String }.sorted()
        }

        /// Runs `body` while holding the lock of `key` within this process.
        public func withExclusiveAccess<Result: Sendable>(
            to key: String,
            _ body: @Sendable () async throws -> Result
        ) async throws -> Result {
            try await Self.locks.withLock(key, body)
        }

        private static func failure(_ action: String, _ key: String, _ status: OSStatus) -> BearerError {
            let message = SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
            return BearerError(.storageFailure, "Cannot \(action) the keychain item \(key): \(message).")
        }
    }
#endif
