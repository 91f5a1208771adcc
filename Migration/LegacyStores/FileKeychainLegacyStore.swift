#if canImport(Security)
    public import Foundation
    import Security

    /// The file-based keychain where GTMAppAuth before 5.0 and GTMOAuth2 kept items on macOS:
    /// generic passwords with service = item name and account `OAuth`.
    public struct FileKeychainLegacyStore: LegacyItemStore {
        /// The account of every item.
        public let account: String

        /// Creates a store.
        ///
        /// - Parameter account: The items' account; `OAuth` for GTMAppAuth and GTMOAuth2.
        public init(account: String = "OAuth") {
            self.account = account
        }

        /// What to do when a keychain call fails.
        private static let advice =
            "check that this app may use the login keychain and that it is unlocked, then try again."

        private func query(_ name: String) -> [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: name,
                kSecAttrAccount as String: account,
                kSecUseDataProtectionKeychain as String: false,
            ]
        }

        /// Reads an item.
        public func read(_ name: String) async throws -> Data? {
            var query = query(name)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else {
                throw MigrationError.storeFailure(
                    "Cannot read the keychain item \(name) (OSStatus \(status)); " + Self.advice)
            }
            return data
        }

        /// Writes an item, replacing any previous one.
        public func write(_ data: Data, to name: String) async throws {
            let status = SecItemUpdate(query(name) as CFDictionary, [kSecValueData as String: data] as CFDictionary)
            if status == errSecItemNotFound {
                var attributes = query(name)
                attributes[kSecValueData as String] = data
                // On the Mac this is the file-based keychain, which has no accessibility classes:
                // kSecAttrAccessible applies only with kSecUseDataProtectionKeychain or
                // kSecAttrSynchronizable, so it is set only where the item is a data-protection one.
                #if !os(macOS) && !targetEnvironment(macCatalyst)
                    attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                #endif
                let added = SecItemAdd(attributes as CFDictionary, nil)
                guard added == errSecSuccess else {
                    throw MigrationError.storeFailure(
                        "Cannot add the keychain item \(name) (OSStatus \(added)); " + Self.advice)
                }
            } else if status != errSecSuccess {
                throw MigrationError.storeFailure(
                    "Cannot update the keychain item \(name) (OSStatus \(status)); " + Self.advice)
            }
        }

        /// Removes an item.
        public func remove(_ name: String) async throws {
            let status = SecItemDelete(query(name) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw MigrationError.storeFailure(
                    "Cannot remove the keychain item \(name) (OSStatus \(status)); " + Self.advice)
            }
        }
    }
#endif
