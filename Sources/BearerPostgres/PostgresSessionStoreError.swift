public import BearerCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A failure of ``PostgresSessionStore``: the database could not be reached, a lock was not
/// granted in time, the schema is missing, a stored row cannot be opened.
///
/// Each error has a ``kind`` to branch on, a reason (which `description` prints) that says what
/// went wrong and what to do, the PostgreSQL error code (``sqlState``) when the server sent one, and ``isTransient``: whether
/// the same call may succeed if tried again later with nothing else changed. Errors compare equal
/// when their kinds are equal. No reason ever contains a token or a connection string's password.
public struct PostgresSessionStoreError: KindedError {
    /// What kind of failure this is. New kinds may be added in later versions.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case connectionFailed
            case connectionLost
            case lockTimeout
            case poolTimeout
            case serverError
            case schemaMissing
            case unsupportedSchema
            case invalidConfiguration
            case sealingFailed
            case closed
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The name of the kind.
        public var description: String { base.rawValue }

        /// No connection could be opened: the server is down, restarting or unreachable
        /// (transient), or it refused the credentials or the database name (not transient).
        public static let connectionFailed = Kind(.connectionFailed)
        /// The connection broke during the call; whatever the call was doing may or may not have
        /// been committed. A lock held on that connection is released with it.
        public static let connectionLost = Kind(.connectionLost)
        /// Another process held the session's lock for longer than the store's lock timeout.
        public static let lockTimeout = Kind(.lockTimeout)
        /// Every connection of the pool stayed busy for longer than the store's lock timeout.
        public static let poolTimeout = Kind(.poolTimeout)
        /// The server failed the statement; ``PostgresSessionStoreError/sqlState`` says why.
        public static let serverError = Kind(.serverError)
        /// The sessions table does not exist: call ``PostgresSessionStore/prepareSchema()`` or run
        /// the SQL of ``PostgresSessionStore/schemaSQL(table:)``.
        public static let schemaMissing = Kind(.schemaMissing)
        /// The sessions table was made by a newer release (its schema version is higher than
        /// ``PostgresSessionStore/schemaVersion``), or is not a Bearer sessions table.
        public static let unsupportedSchema = Kind(.unsupportedSchema)
        /// A setting is malformed: the connection string, the table name, a timeout.
        public static let invalidConfiguration = Kind(.invalidConfiguration)
        /// A row could not be sealed or opened: the sealing hook failed, or a sealed row was read
        /// by a store without one (or an unsealed row by a store with one). The row is unchanged.
        public static let sealingFailed = Kind(.sealingFailed)
        /// The store was closed with ``PostgresSessionStore/close()``.
        public static let closed = Kind(.closed)
    }

    /// The type's name, as `description` prints it.
    package static let typeName = "PostgresSessionStoreError"
    /// What kind of failure this is.
    public let kind: Kind
    /// What went wrong and what to do about it, in English, without secrets; `description`
    /// prints it.
    package let reason: String
    /// The five-character SQLSTATE the server sent (`55P03` for a lock timeout), if it sent one.
    public let sqlState: String?
    /// Whether the same call may succeed if tried again later, with nothing else changed: the
    /// server was unreachable or restarting, a connection broke, a lock or a pooled connection was
    /// not free in time, or the server ran out of a resource. Not transient: a missing schema,
    /// refused credentials, a malformed setting, a sealing failure.
    public let isTransient: Bool
    /// The file that raised the error.
    package let file: String
    /// The line that raised the error.
    package let line: UInt
    /// The error that caused this one, when there is one (a sealing hook's error).
    public var underlyingError: (any Error)?

    private init(
        _ kind: Kind,
        _ reason: String,
        sqlState: String? = nil,
        isTransient: Bool,
        underlyingError: (any Error)? = nil,
        file: String,
        line: UInt
    ) {
        self.kind = kind
        self.reason = reason
        self.sqlState = sqlState
        self.isTransient = isTransient
        self.underlyingError = underlyingError
        self.file = file
        self.line = line
    }
}

extension PostgresSessionStoreError {
    static func connectionFailed(
        _ reason: String, isTransient: Bool, file: String = #fileID, line: UInt = #line
    ) -> Self {
        Self(.connectionFailed, reason, isTransient: isTransient, file: file, line: line)
    }

    static func connectionLost(_ reason: String, file: String = #fileID, line: UInt = #line) -> Self {
        Self(.connectionLost, reason, isTransient: true, file: file, line: line)
    }

    static func lockTimeout(_ reason: String, sqlState: String?, file: String = #fileID, line: UInt = #line) -> Self {
        Self(.lockTimeout, reason, sqlState: sqlState, isTransient: true, file: file, line: line)
    }

    static func poolTimeout(_ reason: String, file: String = #fileID, line: UInt = #line) -> Self {
        Self(.poolTimeout, reason, isTransient: true, file: file, line: line)
    }

    static func serverError(
        _ reason: String, sqlState: String?, isTransient: Bool, file: String = #fileID, line: UInt = #line
    ) -> Self {
        Self(.serverError, reason, sqlState: sqlState, isTransient: isTransient, file: file, line: line)
    }

    static func schemaMissing(_ reason: String, sqlState: String?, file: String = #fileID, line: UInt = #line) -> Self {
        Self(.schemaMissing, reason, sqlState: sqlState, isTransient: false, file: file, line: line)
    }

    static func unsupportedSchema(_ reason: String, file: String = #fileID, line: UInt = #line) -> Self {
        Self(.unsupportedSchema, reason, isTransient: false, file: file, line: line)
    }

    static func invalidConfiguration(_ reason: String, file: String = #fileID, line: UInt = #line) -> Self {
        Self(.invalidConfiguration, reason, isTransient: false, file: file, line: line)
    }

    static func sealingFailed(
        _ reason: String, underlyingError: (any Error)? = nil, file: String = #fileID, line: UInt = #line
    ) -> Self {
        Self(.sealingFailed, reason, isTransient: false, underlyingError: underlyingError, file: file, line: line)
    }

    static func closed(file: String = #fileID, line: UInt = #line) -> Self {
        Self(.closed, "The session store was closed; create a new one.", isTransient: false, file: file, line: line)
    }
}
