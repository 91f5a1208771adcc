import CLibPQ

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One libpq connection. Every method blocks: call them only on the connection's own
/// ``ConnectionThread``.
final class PostgresConnection {
    /// A statement parameter, sent in binary form (no quoting, no text escaping of tokens).
    enum Parameter {
        case text(String)
        case bytes(Data)
        case bool(Bool)
    }

    let handle: OpaquePointer
    let settings: ConnectionSettings
    /// Which connection of its pool place this is (1 for the first the place opened, and so on).
    let serial: Int
    /// When the statement under way must have been answered: ``ConnectionSettings/statementTimeoutMilliseconds``
    /// after it was sent, or ``latestDeadline`` when that is sooner.
    var deadline: ContinuousClock.Instant?
    /// The latest any statement of the job under way may be answered, set by the connection's
    /// place for the job (the end of a lock wait).
    var latestDeadline: ContinuousClock.Instant?
    /// Set when the task that submitted the job under way was cancelled, for work that may stop
    /// half-way; `nil` for work that must run to its end (a save).
    var cancellation: CancellationFlag?
    /// Set when the server said it is ending the session (shutdown, crash, restart), before libpq
    /// noticed the socket close.
    var isEnding = false
    /// Set when a statement's answer did not come by its deadline: the server or the network
    /// stopped answering, and trying again at once would only wait again.
    var didTimeOut = false

    /// Opens a connection and sets its `lock_timeout`.
    ///
    /// - Throws: ``PostgresSessionStoreError/Kind/connectionFailed``.
    init(settings: ConnectionSettings, serial: Int) throws {
        // The app's string comes last, so its settings win over these defaults (libpq reads the
        // keywords in order and `dbname` expands to the whole string).
        let keywords = settings.defaults.map(\.keyword) + ["dbname"]
        let values = settings.defaults.map(\.value) + [settings.connectionString]
        let handle = Self.withCStrings(keywords) { keywordPointers in
            Self.withCStrings(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let handle else {
            throw PostgresSessionStoreError.connectionFailed(
                "libpq could not allocate a connection.", isTransient: true)
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = settings.redacting(String(cString: PQerrorMessage(handle)))
            let needsPassword = PQconnectionNeedsPassword(handle) != 0
            PQfinish(handle)
            throw PostgresSessionStoreError.connectionFailed(
                "Could not connect to PostgreSQL: \(message)",
                isTransient: !needsPassword && !Self.isConfigurationFailure(message)
            )
        }
        self.handle = handle
        self.settings = settings
        self.serial = serial
        // libpq prints the server's notices (`relation … already exists, skipping`) on standard
        // error unless told otherwise; a library keeps the app's output its own.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        // A failure from here on leaves `deinit` to close the handle (a class whose initializer
        // throws once every property is set is deinitialized).
        guard PQsetnonblocking(handle, 1) == 0 else {
            throw PostgresSessionStoreError.connectionFailed(
                "libpq could not make the connection non-blocking.", isTransient: true)
        }
        // Nothing the store sends waits on the server for longer than the lock timeout, nor runs
        // for longer than the statement timeout.
        try execute("SET lock_timeout = \(settings.lockTimeoutMilliseconds)")
        try execute("SET statement_timeout = \(settings.statementTimeoutMilliseconds)")
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection is still usable (libpq saw no broken socket, and it was not
    /// ``abandon()``ed).
    var isHealthy: Bool { !isEnding && PQstatus(handle) == CONNECTION_OK }

    /// Marks the connection as unusable, so that its pool closes it rather than reuse it: for a
    /// connection left holding something the server only releases when it closes (a lock that
    /// could not be given back).
    func abandon() {
        isEnding = true
    }

    /// Runs `sql` with `parameters` (`$1`, `$2`, …) and returns the rows, each column's bytes in
    /// binary form (`nil` for SQL NULL).
    ///
    /// - Throws: ``PostgresSessionStoreError`` of the kind the failure calls for.
    @discardableResult
    func execute(_ sql: String, _ parameters: [Parameter] = []) throws -> [[Data?]] {
        let encoded: [[UInt8]] = parameters.map {
            switch $0 {
            case .text(let text): Array(text.utf8)
            case .bytes(let data): Array(data)
            case .bool(let value): [value ? 1 : 0]
            }
        }
        let buffers = encoded.map { bytes -> UnsafeMutablePointer<CChar> in
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBytes { raw in
                UnsafeMutableRawPointer(buffer).copyMemory(
                    from: raw.baseAddress ?? UnsafeRawPointer(buffer), byteCount: raw.count)
            }
            return buffer
        }
        defer { for pointer in buffers { pointer.deallocate() } }
        let values: [UnsafePointer<CChar>?] = buffers.map { UnsafePointer($0) }
        let lengths = encoded.map { Int32($0.count) }
        let formats = [Int32](repeating: 1, count: encoded.count)
        let ownDeadline = ContinuousClock.now + .milliseconds(settings.statementTimeoutMilliseconds)
        deadline = latestDeadline.map { min($0, ownDeadline) } ?? ownDeadline
        guard PQsendQueryParams(handle, sql, Int32(encoded.count), nil, values, lengths, formats, 1) == 1 else {
            throw failure(sqlState: nil, message: String(cString: PQerrorMessage(handle)))
        }
        let result = try awaitResult()
        defer { PQclear(result) }
        guard let result else {
            throw failure(sqlState: nil, message: String(cString: PQerrorMessage(handle)))
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK:
            return []
        case PGRES_TUPLES_OK:
            return Self.rows(of: result)
        default:
            let sqlState = PQresultErrorField(result, Self.field("C")).map { String(cString: $0) }
            let primary = PQresultErrorField(result, Self.field("M")).map { String(cString: $0) }
            throw failure(sqlState: sqlState, message: primary ?? String(cString: PQerrorMessage(handle)))
        }
    }

    private static func rows(of result: OpaquePointer) -> [[Data?]] {
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        return (0..<rowCount).map { row in
            (0..<columnCount).map { column -> Data? in
                if PQgetisnull(result, row, column) != 0 { return nil }
                let length = Int(PQgetlength(result, row, column))
                guard let value = PQgetvalue(result, row, column) else { return Data() }
                return Data(bytes: value, count: length)
            }
        }
    }

    /// The typed error for a failed statement.
    func failure(sqlState: String?, message: String) -> PostgresSessionStoreError {
        let text = settings.redacting(message)
        // An error libpq raised itself (no SQLSTATE: the socket closed), a connection exception
        // (08), or the server's own shutdown, crash and restart (57P01–57P03) end the session.
        guard let sqlState, !sqlState.hasPrefix("08"), !["57P01", "57P02", "57P03"].contains(sqlState) else {
            isEnding = true
            return .connectionLost("The connection to PostgreSQL broke: \(text). Try again.")
        }
        guard isHealthy else {
            return .connectionLost("The connection to PostgreSQL broke: \(text). Try again.")
        }
        switch sqlState {
        case "55P03":
            return .lockTimeout(
                "Another process held the session's lock for longer than the lock timeout "
                    + "(\(settings.lockTimeoutMilliseconds) ms); try again.",
                sqlState: sqlState
            )
        case "42P01":
            return .schemaMissing(
                "The sessions table does not exist (\(text)); call prepareSchema() or run the schema SQL.",
                sqlState: sqlState
            )
        default:
            return .serverError(
                "PostgreSQL failed the statement: \(text).", sqlState: sqlState,
                isTransient: Self.isTransient(sqlState: sqlState))
        }
    }

    /// Transient classes (PostgreSQL Appendix A): connection exceptions (08), transaction
    /// rollbacks such as serialization failures and deadlocks (40), insufficient resources (53),
    /// operator intervention such as a shutdown or a cancelled statement (57), lock not
    /// available (55P03).
    private static func isTransient(sqlState: String) -> Bool {
        return ["08", "40", "53", "57"].contains(String(sqlState.prefix(2))) || sqlState == "55P03"
    }

    /// Whether a connection failure needs someone to change a setting, not time to pass.
    private static func isConfigurationFailure(_ message: String) -> Bool {
        let lowered = message.lowercased()
        return [
            "authentication failed", "does not exist", "no pg_hba.conf entry", "invalid", "certificate",
            "not supported", "permission denied", "does not support ssl", "sslmode",
        ].contains { lowered.contains($0) }
    }

    private static func field(_ code: Unicode.Scalar) -> Int32 { Int32(code.value) }

    private static func withCStrings<Result>(
        _ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> Result
    ) -> Result {
        let copies = strings.map { strdup($0) }
        defer { for pointer in copies { free(pointer) } }
        return body(copies.map { UnsafePointer($0) } + [nil])
    }
}
