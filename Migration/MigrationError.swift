public import Foundation

/// A failure to read, write or move a legacy session.
///
/// Each error has a ``kind`` to branch on, a ``reason`` that says what went wrong and what to do,
/// and the place where it was raised. Errors compare equal when their kinds are equal, so tests and
/// apps can compare ``kind`` alone. No reason ever contains a token.
public struct MigrationError: Error, Sendable {
    /// What kind of failure this is. New kinds may be added in later versions.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case malformedArchive
            case malformedItem
            case unknownFormat
            case storeFailure
            case verificationFailed
            case conflictingSettings
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The name of the kind.
        public var description: String { base.rawValue }

        /// A keyed archive or property list is malformed (truncated, cyclic, dangling references).
        public static let malformedArchive = Kind(.malformedArchive)
        /// A persistence string, credentials file or item lacks what a session needs.
        public static let malformedItem = Kind(.malformedItem)
        /// The data is in no format Bearer knows.
        public static let unknownFormat = Kind(.unknownFormat)
        /// A legacy store could not be read, written or cleaned up.
        public static let storeFailure = Kind(.storeFailure)
        /// The session written to the new store did not read back equal; the legacy item was kept.
        public static let verificationFailed = Kind(.verificationFailed)
        /// The item names a setting (an issuer, a client ID) other than the one given; nothing was
        /// read, so that neither is silently chosen.
        public static let conflictingSettings = Kind(.conflictingSettings)
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// What went wrong and what to do about it, in English, without secrets.
    public let reason: String
    /// The file that raised the error.
    public let file: String
    /// The line that raised the error.
    public let line: UInt

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: What kind of failure this is.
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - file: The raising file.
    ///   - line: The raising line.
    public init(_ kind: Kind, _ reason: String, file: String = #fileID, line: UInt = #line) {
        self.kind = kind
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// A damaged keyed archive or property list.
    ///
    /// - Parameters:
    ///   - problem: What is wrong with it, as a clause (`"a UID points nowhere"`).
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: An error of kind ``Kind/malformedArchive`` whose reason says to export the item again.
    static func malformedArchive(_ problem: String, file: String = #fileID, line: UInt = #line) -> MigrationError {
        MigrationError(
            .malformedArchive,
            "The keyed archive is malformed: \(problem). Export the keychain item again; if it stays malformed, "
                + "the user must sign in again.",
            file: file,
            line: line
        )
    }
}

extension MigrationError: Hashable {
    /// Errors are equal when their kinds are.
    public static func == (lhs: MigrationError, rhs: MigrationError) -> Bool {
        lhs.kind == rhs.kind
    }

    /// Hashes the kind.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
    }
}

extension MigrationError: CustomStringConvertible {
    /// The kind and the reason.
    public var description: String { "MigrationError.\(kind): \(reason)" }
}

extension MigrationError: LocalizedError {
    /// The kind and the reason, so `localizedDescription` says what to do.
    public var errorDescription: String? { description }
}
