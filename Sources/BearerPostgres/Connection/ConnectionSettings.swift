import CLibPQ

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What every connection of a store is opened with, and the secrets its messages must never show.
struct ConnectionSettings: Sendable {
    /// The connection string as the app gave it (`host=… dbname=…` or `postgresql://…`).
    let connectionString: String
    /// The connection string's password, when it has one: removed from every message.
    private let password: String?
    /// `lock_timeout`, in milliseconds.
    let lockTimeoutMilliseconds: Int
    /// How long one statement may take, on the server (`statement_timeout`) and as the store
    /// waits for its answer: the lock timeout, or 1 s when that is shorter.
    var statementTimeoutMilliseconds: Int { max(lockTimeoutMilliseconds, 1000) }
    /// The settings every connection is opened with before the app's own, which win over them.
    let defaults: [(keyword: String, value: String)]
    /// Whether the store asks for `sslmode=verify-full`: the app named no `sslmode` (nor
    /// `PGSSLMODE`, nor a service), and at least one host is reached over TCP.
    let requiresVerifiedTLS: Bool

    /// Checks `connectionString` with libpq's own parser.
    ///
    /// - Throws: ``PostgresSessionStoreError/Kind/invalidConfiguration`` when libpq cannot parse it;
    ///   the message never repeats the string, which may hold a password.
    init(connectionString: String, lockTimeout: Duration) throws {
        let (seconds, attoseconds) = lockTimeout.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        guard milliseconds > 0, milliseconds <= Int64(Int32.max) else {
            throw PostgresSessionStoreError.invalidConfiguration(
                "The lock timeout must be at least 1 ms and at most 24 days.")
        }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &error) else {
            if let error { PQfreemem(error) }
            throw PostgresSessionStoreError.invalidConfiguration(
                "libpq cannot parse the connection string (it is not repeated here, as it may hold a password); "
                    + "see https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING.")
        }
        defer { PQconninfoFree(options) }
        var given: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val {
                let text = String(cString: value)
                if !text.isEmpty { given[String(cString: keyword)] = text }
            }
            option += 1
        }
        let environment = ProcessInfo.processInfo.environment
        // A service file (`service=`, `PGSERVICE`) is the application's own configuration, and
        // names hosts and an sslmode the store cannot see: it is left to decide.
        let namesSSLMode =
            given["sslmode"] != nil || given["service"] != nil
            || !(environment["PGSSLMODE"] ?? "").isEmpty || !(environment["PGSERVICE"] ?? "").isEmpty
        let requiresVerifiedTLS =
            !namesSSLMode
            && Self.reachesOverTCP(
                host: given["host"] ?? environment["PGHOST"], hostaddr: given["hostaddr"] ?? environment["PGHOSTADDR"])
        let timeoutSeconds = String(max(2, (milliseconds + 999) / 1000))
        self.connectionString = connectionString
        self.password = given["password"]
        self.lockTimeoutMilliseconds = Int(milliseconds)
        self.requiresVerifiedTLS = requiresVerifiedTLS
        // A peer that stops answering is noticed within the lock timeout: libpq's connect
        // timeout, TCP keepalives, and the kernel's limit on unacknowledged data.
        var defaults = [
            ("connect_timeout", timeoutSeconds), ("application_name", "bearer-session-store"), ("keepalives", "1"),
            ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
            ("tcp_user_timeout", String(milliseconds)),
        ]
        if requiresVerifiedTLS { defaults.append(("sslmode", "verify-full")) }
        self.defaults = defaults.map { (keyword: $0.0, value: $0.1) }
    }

    /// Whether libpq reaches any of `host` (a comma-separated list; empty or unset means the
    /// default Unix socket) over TCP: a host name or address, not a directory (`/…`, or `@…` for
    /// Linux's abstract namespace). An address in `hostaddr` is always TCP.
    static func reachesOverTCP(host: String?, hostaddr: String?) -> Bool {
        if let hostaddr, !hostaddr.isEmpty { return true }
        guard let host, !host.isEmpty else { return false }
        return host.split(separator: ",", omittingEmptySubsequences: false).contains { entry in
            !entry.isEmpty && !entry.hasPrefix("/") && !entry.hasPrefix("@")
        }
    }

    /// `message` without the password, trimmed.
    func redacting(_ message: String) -> String {
        var text = message
        if let password { text = text.replacing(password, with: "********") }
        return text.trimmingWhitespace()
    }
}

extension ConnectionSettings: CustomStringConvertible, CustomReflectable {
    /// The lock timeout only: the connection string may hold a password.
    var description: String {
        "ConnectionSettings(connection string <redacted>, lock_timeout \(lockTimeoutMilliseconds) ms, "
            + "sslmode \(requiresVerifiedTLS ? "verify-full" : "as given")"
    }

    /// A mirror whose only child is the description, so `dump` of a store shows no password.
    var customMirror: Mirror { Mirror(self, children: ["description": description], displayStyle: .struct) }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var text = self[...]
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        return String(text)
    }
}
