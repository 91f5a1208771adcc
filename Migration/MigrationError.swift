public import Bearer
import Foundation

/// A failure to read, write or move a legacy session.
///
/// Each error has a ``kind`` to branch on and says, in its `description`, what went wrong, what to
/// do, and where it was raised. Errors compare equal when their kinds are equal, so tests and
/// apps can compare ``kind`` alone. No reason ever contains a token.
public struct MigrationError: KindedError {
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

    package static let typeName = "MigrationError"

    /// What kind of failure this is.
    public let kind: Kind
    /// What went wrong and what to do about it, in English, without secrets; the tool shows it.
    package let reason: String
    package let file: String
    package let line: UInt

    private init(_ kind: Kind, _ reason: String, file: String, line: UInt) {
        self.kind = kind
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// A keyed archive or property list is malformed; the reason names what is wrong with it.
    package static func malformedArchive(_ problem: String, file: String = #fileID, line: UInt = #line)
        -> MigrationError
    {
        MigrationError(
            .malformedArchive,
            "The keyed archive is malformed: \(problem). Export the keychain item again; if it stays malformed, "
                + "the user must sign in again.",
            file: file,
            line: line
        )
    }

    /// A persistence string, credentials file or item lacks what a session needs.
    package static func malformedItem(_ reason: String, file: String = #fileID, line: UInt = #line) -> MigrationError {
        MigrationError(.malformedItem, reason, file: file, line: line)
    }

    /// The data is in no format Bearer knows.
    package static func unknownFormat(_ reason: String, file: String = #fileID, line: UInt = #line) -> MigrationError {
        MigrationError(.unknownFormat, reason, file: file, line: line)
    }

    /// A legacy store could not be read, written or cleaned up.
    package static func storeFailure(_ reason: String, file: String = #fileID, line: UInt = #line) -> MigrationError {
        MigrationError(.storeFailure, reason, file: file, line: line)
    }

    /// The session written to the new store did not read back equal; the legacy item was kept.
    package static func verificationFailed(_ reason: String, file: String = #fileID, line: UInt = #line)
        -> MigrationError
    {
        MigrationError(.verificationFailed, reason, file: file, line: line)
    }

    /// The item names a setting other than the one given; nothing was read.
    package static func conflictingSettings(_ reason: String, file: String = #fileID, line: UInt = #line)
        -> MigrationError
    {
        MigrationError(.conflictingSettings, reason, file: file, line: line)
    }
}
