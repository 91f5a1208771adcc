/// The decisions of ``KeychainSessionStore``, kept apart from the Security framework so that they
/// are tested on every platform: which item a key names, and what each `OSStatus` the keychain
/// returns means. The store itself only turns these into `SecItem` calls.
@_spi(Bridge) public enum KeychainItemRules {
    /// The `OSStatus` values the store tells apart (Security/SecBase.h).
    enum Status {
        /// `errSecSuccess`.
        static let success: Int32 = 0
        /// `errSecItemNotFound`.
        static let itemNotFound: Int32 = -25_300
        /// `errSecDuplicateItem`: an item with the same primary key (access group, service,
        /// account, synchronizable) exists, for example one another process just added.
        static let duplicateItem: Int32 = -25_299
        /// `errSecInteractionNotAllowed`: the item is not readable now (the device is locked).
        static let interactionNotAllowed: Int32 = -25_308
        /// `errSecMissingEntitlement`: the data-protection keychain needs the
        /// `keychain-access-groups` or `application-identifier` entitlement, which an unsigned
        /// command-line tool on macOS does not have.
        static let missingEntitlement: Int32 = -34_018
    }

    /// The primary key of a session's generic-password item: the store's service and the
    /// session's key as the account, in the store's access group (``KeychainAccessGroup``). A
    /// query with the service alone would match, and `SecItemDelete` would delete, every item of
    /// that service; one without the group, every group's item of that key.
    @_spi(Bridge) public struct Item: Sendable, Hashable {
        /// `kSecAttrService`: the store's service.
        @_spi(Bridge) public var service: String
        /// `kSecAttrAccount`: the session's key.
        @_spi(Bridge) public var account: String
        /// `kSecAttrAccessGroup`: the store's group, configured or the app's default.
        @_spi(Bridge) public var accessGroup: String

        /// The item of `key` in a store.
        @_spi(Bridge) public init(service: String, key: String, accessGroup: String) {
            self.service = service
            self.account = key
            self.accessGroup = accessGroup
        }
    }

    /// The next step of a save, which updates the item, adds it when it is missing, and updates it
    /// again when another process added it in between.
    enum SaveStep: Sendable, Equatable {
        /// The item holds the session.
        case saved
        /// No item exists: add one.
        case add
        /// An item exists after all: update it.
        case update
        /// The save failed.
        case failed(BearerError)
    }

    /// How many updates and adds a save tries before it reports the last failure; each retry
    /// follows a change by another process between two calls.
    static let maximumSaveAttempts = 4

    /// What to do after `SecItemUpdate` returned `status`.
    static func stepAfterUpdate(_ status: Int32, key: String, message: String? = nil) -> SaveStep {
        switch status {
        case Status.success: return .saved
        case Status.itemNotFound: return .add
        default: return .failed(failure("update", key: key, status: status, message: message))
        }
    }

    /// What to do after `SecItemAdd` returned `status`.
    static func stepAfterAdd(_ status: Int32, key: String, message: String? = nil) -> SaveStep {
        switch status {
        case Status.success: return .saved
        case Status.duplicateItem: return .update
        default: return .failed(failure("add", key: key, status: status, message: message))
        }
    }

    /// Saves with the given calls, following ``stepAfterUpdate(_:key:message:)`` and
    /// ``stepAfterAdd(_:key:message:)`` for at most ``maximumSaveAttempts`` calls.
    ///
    /// - Parameters:
    ///   - key: The session's key, for messages.
    ///   - update: Calls `SecItemUpdate` and returns its status.
    ///   - add: Calls `SecItemAdd` and returns its status.
    ///   - message: The keychain's description of a status, if it has one.
    /// - Throws: ``BearerError`` from ``failure(_:key:status:message:)``.
    @_spi(Bridge) public static func save(
        key: String,
        update: () -> Int32,
        add: () -> Int32,
        message: (Int32) -> String? = { _ in nil }
    ) throws {
        var step = SaveStep.update
        for _ in 0..<maximumSaveAttempts {
            switch step {
            case .saved:
                return
            case .failed(let error):
                throw error
            case .update:
                let status = update()
                step = stepAfterUpdate(status, key: key, message: message(status))
            case .add:
                let status = add()
                step = stepAfterAdd(status, key: key, message: message(status))
            }
        }
        switch step {
        case .saved: return
        case .failed(let error): throw error
        case .add, .update:
            throw BearerError.storageFailure(
                "The keychain item of \(key) kept changing while it was saved (another process is writing it); "
                    + "try again."
            )
        }
    }

    /// Whether a read's `status` means that no session is saved.
    @_spi(Bridge) public static func isAbsent(_ status: Int32) -> Bool {
        status == Status.itemNotFound
    }

    /// Whether a removal's `status` means that the item is gone.
    @_spi(Bridge) public static func isRemoved(_ status: Int32) -> Bool {
        status == Status.success || status == Status.itemNotFound
    }

    /// The error for a failed keychain call.
    ///
    /// - Parameters:
    ///   - action: What was attempted: `read`, `add`, `update`, `remove`.
    ///   - key: The session's key.
    ///   - status: The `OSStatus`.
    ///   - message: The keychain's description of the status, if any.
    /// - Returns: ``BearerError/Kind/invalidConfiguration`` naming the entitlement for
    ///   `errSecMissingEntitlement`; ``BearerError/Kind/storageFailure`` otherwise.
    @_spi(Bridge) public static func failure(_ action: String, key: String, status: Int32, message: String?)
        -> BearerError
    {
        switch status {
        case Status.missingEntitlement:
            return BearerError.invalidConfiguration(
                "The keychain refused to \(action) the session \(key) (errSecMissingEntitlement, -34018): the "
                    + "data-protection keychain needs the keychain-access-groups or application-identifier "
                    + "entitlement, which unsigned tools and apps without a provisioning profile lack. Sign the app "
                    + "with a keychain access group (the Keychain Sharing capability), or keep sessions in a "
                    + "FileSessionStore instead."
            )
        case Status.interactionNotAllowed:
            return BearerError.storageFailure(
                "The keychain cannot \(action) the session \(key) while the device is locked "
                    + "(errSecInteractionNotAllowed); try again after the first unlock."
            )
        default:
            return BearerError.storageFailure(
                "Cannot \(action) the keychain item of \(key): \(message ?? "OSStatus \(status)")."
            )
        }
    }
}
