/// A failure to read, write or move a legacy session.
///
/// Each error has a ``kind`` and a ``reason`` that says what was wrong; no reason contains a token.
/// Errors compare equal when their kinds are equal.
public struct MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. New kinds may be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The name of the kind.
        public var description: String { name }

        /// A keyed archive or property list is malformed (truncated, cyclic, dangling references).
        public static let malformedArchive = Kind("malformedArchive")
        /// A persistence string, credentials file or item lacks what a session needs.
        public static let malformedItem = Kind("malformedItem")
        /// The data is in no format Bearer knows.
        public static let unknownFormat = Kind("unknownFormat")
        /// A legacy store could not be read, written or cleaned up.
        public static let storeFailure = Kind("storeFailure")
        /// The session written to the new store did not read back equal; the legacy item was kept.
        public static let verificationFailed = Kind("verificationFailed")
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// What was wrong, without secrets.
    public let reason: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: The kind.
    ///   - reason: What was wrong; never include a token.
    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    static func malformedArchive(_ reason: String) -> MigrationError {
        MigrationError(.malformedArchive, "The keyed archive is malformed: \(reason).")
    }

    /// The kind and the reason.
    public var description: String { "MigrationError.\(kind): \(reason)" }

    /// Errors are equal when their kinds are.
    public static func == (lhs: MigrationError, rhs: MigrationError) -> Bool {
        lhs.kind == rhs.kind
    }

    /// Hashes the kind.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
    }
}
