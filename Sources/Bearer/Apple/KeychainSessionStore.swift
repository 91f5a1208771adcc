@_spi(Bridge) import BearerCore

#if canImport(Security)
    import Foundation
    import Security

    /// A ``SessionStore`` in the data-protection keychain (Apple platforms): one generic-password
    /// item per key, identified by the store's service, the key as its account and the store's
    /// access group, readable after the first unlock, on this device only.
    ///
    /// Every query names the access group: the one given, or else the app's default group (the
    /// first of its `keychain-access-groups`, else its application identifier). A store made
    /// without a group therefore never reads, replaces or removes the items of a store that shares
    /// another group with the app's extensions.
    ///
    /// An app and its widget or extensions share sessions with the same `accessGroup` (a keychain
    /// access group of all of them) and the same `appGroup`: ``withExclusiveAccess(to:_:)`` then
    /// holds a lock file in the app group's shared container, which every process of the group
    /// sees, so that they refresh a session once between them (see the app extensions guide).
    ///
    /// On macOS the data-protection keychain needs the `keychain-access-groups` or
    /// `application-identifier` entitlement; without one (an unsigned command-line tool) every
    /// call fails with ``BearerError/Kind/invalidConfiguration`` naming them. Such tools keep
    /// sessions in a ``FileSessionStore``.
    ///
    /// What a status means, which item a key names and how the lock is taken are decided by
    /// platform-neutral code (`KeychainItemRules`, `ItemSessionStore`, `LockFolder`); this type
    /// only makes the `SecItem` calls and looks up the shared container.
    public struct KeychainSessionStore: SessionStore {
        /// The service of the store's items, unless another is given.
        public static let defaultService = "Bearer"

        /// The `kSecAttrService` of every item of this store; each key is an account of it.
        public let service: String
        /// The keychain access group shared with other apps of the same team, or with the app's
        /// extensions, if any.
        public let accessGroup: String?
        /// The app group whose shared container holds the locks, if the sessions are shared with
        /// other processes (a widget, an extension).
        public let appGroup: String?
        /// The logout tokens this store value accepted (see ``BackChannelLogoutStore``).
        let seenLogoutTokens = SeenLogoutTokens()

        /// Creates a store.
        ///
        /// - Parameters:
        ///   - service: The service of the store's items; removing a key removes only that key's
        ///     item of this service.
        ///   - accessGroup: A keychain access group, to share sessions between apps or with the
        ///     app's extensions.
        ///   - appGroup: An app group (`group.…`) of every process that shares the sessions, whose
        ///     shared container holds the lock files; without one, the lock holds within this
        ///     process only.
        public init(
            service: String = KeychainSessionStore.defaultService,
            accessGroup: String? = nil,
            appGroup: String? = nil
        ) {
            self.service = service
            self.accessGroup = accessGroup
            self.appGroup = appGroup
        }

        /// The platform-neutral store over this store's items; `lockFolder` is where its locks are.
        /// Its locks are named by service and the resolved access group, so that two stores that
        /// reach the same items take the same lock.
        private func store(lockFolder: LockFolder? = nil) throws -> ItemSessionStore<KeychainItems> {
            let items = try KeychainItems(service: service, configuredGroup: accessGroup)
            return ItemSessionStore(
                items: items, namespace: service + "\u{0}" + items.accessGroup, lockFolder: lockFolder,
                activity: lockFolder == nil ? nil : Self.sharedLockActivity)
        }

        /// The activity a shared lock is held in: where the system suspends processes in the
        /// background, one that holds a lock file in a shared container is ended (`0xdead10cc`).
        private static var sharedLockActivity: ExpiringActivity? {
            #if os(macOS)
                nil
            #else
                ExpiringActivity(provider: ProcessInfoExpiringActivities())
            #endif
        }

        /// The lock folder in the shared container of ``appGroup``, if there is an app group.
        private func sharedLockFolder() throws -> LockFolder? {
            guard let appGroup else { return nil }
            let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup)
            return try LockFolder.inContainer(container, appGroup: appGroup)
        }

        /// Reads the session saved under `key`.
        ///
        /// - Throws: ``BearerError/Kind/invalidConfiguration`` without the keychain entitlement,
        ///   ``BearerError/Kind/storageFailure`` for other keychain failures, or what
        ///   ``AuthState/init(encoded:)`` throws.
        public func load(key: String) async throws -> AuthState? {
            try await store().load(key: key)
        }

        /// The keys of the sessions saved in this store (its service and access group), sorted;
        /// other items of the app are never listed.
        public func keys() async throws -> [String] {
            try await store().keys()
        }

        /// Runs `body` while holding the lock of `key`: with an ``appGroup``, a lock file in its
        /// shared container that the app's extensions see too; otherwise within this process.
        ///
        /// - Throws: What `body` throws; ``BearerError/Kind/invalidConfiguration`` when the app is
        ///   not a member of ``appGroup``; ``BearerError/Kind/storageFailure`` when the lock cannot
        ///   be taken (then `body` does not run).
        public func withExclusiveAccess<Result: Sendable>(
            to key: String,
            _ body: @Sendable (_ access: Access) async throws -> Result
        ) async throws -> Result {
            try await store(lockFolder: try sharedLockFolder()).withExclusiveAccess(to: key) { item in
                try await body(Access(item: item))
            }
        }

        /// A key's keychain item while its lock is held.
        public struct Access: ExclusiveSessionAccess {
            let item: ItemSessionStore<KeychainItems>.Access

            /// Reads the item's session.
            public func load() async throws -> AuthState? {
                try await item.load()
            }

            /// Writes `state` to the item: updates it, adds it when it is missing, and updates it
            /// again when another process (an app extension) added it in between.
            public func write(_ state: AuthState) async throws {
                try await item.write(state)
            }

            /// Removes the item, and no other.
            public func remove() async throws {
                try await item.remove()
            }

            /// Checks that the app group's lock file is still the one locked, before a refresh is sent.
            public func prepareToSave() async throws {
                try await item.prepareToSave()
            }
        }
    }

    /// The generic-password items of one service and access group in the data-protection
    /// keychain: the `SecItem` calls of ``KeychainSessionStore``.
    struct KeychainItems: SessionItems {
        /// The service of the throwaway item that finds the app's default access group; never a
        /// store's service, so the probe is in no store's ``keys()``.
        static let probeService = "Bearer.AccessGroupProbe"

        let service: String
        /// The configured group, or else the app's default group (``KeychainAccessGroup``).
        let accessGroup: String

        /// The items of `service` in `configuredGroup`, or in the app's default group.
        ///
        /// - Throws: ``BearerError`` when the app's default group cannot be found.
        init(service: String, configuredGroup: String?) throws {
            self.service = service
            self.accessGroup = try KeychainAccessGroup.appDefault.resolve(
                configured: configuredGroup, probe: Self.defaultGroup)
        }

        /// Adds a throwaway item without an access group, reads the group the keychain put it in,
        /// and removes it.
        private static func defaultGroup() throws -> String? {
            let account = UUID().uuidString
            let probe: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: probeService,
                kSecAttrAccount as String: account,
                kSecUseDataProtectionKeychain as String: true,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
                kSecValueData as String: Data(),
                kSecReturnAttributes as String: true,
            ]
            var result: CFTypeRef?
            let status = SecItemAdd(probe as CFDictionary, &result)
            guard status == errSecSuccess else {
                throw KeychainItemRules.failure(
                    "find the app's access group for", key: probeService, status: status, message: message(status))
            }
            let group = (result as? [String: Any])?[kSecAttrAccessGroup as String] as? String
            var added: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: probeService,
                kSecAttrAccount as String: account,
                kSecUseDataProtectionKeychain as String: true,
            ]
            if let group { added[kSecAttrAccessGroup as String] = group }
            // A probe left behind (the delete failed) holds no data and is in no store's keys().
            _ = SecItemDelete(added as CFDictionary)
            return group
        }

        /// The query that names the item of `key`, and nothing else.
        private func query(for key: String) -> [String: Any] {
            let item = KeychainItemRules.Item(service: service, key: key, accessGroup: accessGroup)
            return [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: item.service,
                kSecAttrAccount as String: item.account,
                kSecAttrAccessGroup as String: item.accessGroup,
                kSecUseDataProtectionKeychain as String: true,
            ]
        }

        func read(key: String) throws -> Data? {
            var query = query(for: key)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if KeychainItemRules.isAbsent(status) { return nil }
            guard status == errSecSuccess, let data = result as? Data else {
                throw KeychainItemRules.failure("read", key: key, status: status, message: Self.message(status))
            }
            return data
        }

        func write(_ data: Data, key: String) throws {
            // Readable after the first unlock, so that a widget or a background refresh can save
            // a rotated refresh token while the device is locked; never migrated to another device.
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

        func delete(key: String) throws {
            let status = SecItemDelete(query(for: key) as CFDictionary)
            guard KeychainItemRules.isRemoved(status) else {
                throw KeychainItemRules.failure("remove", key: key, status: status, message: Self.message(status))
            }
        }

        func keys() throws -> [String] {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccessGroup as String: accessGroup,
                kSecUseDataProtectionKeychain as String: true,
                kSecReturnAttributes as String: true,
                kSecMatchLimit as String: kSecMatchLimitAll,
            ]
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if KeychainItemRules.isAbsent(status) { return [] }
            guard status == errSecSuccess else {
                throw KeychainItemRules.failure("list", key: service, status: status, message: Self.message(status))
            }
            let items = result as? [[String: Any]] ?? []
            return items.compactMap { $0[kSecAttrAccount as String] as? String }
        }

        /// The keychain's description of `status`.
        private static func message(_ status: OSStatus) -> String? {
            SecCopyErrorMessageString(status, nil) as String?
        }
    }
#endif
