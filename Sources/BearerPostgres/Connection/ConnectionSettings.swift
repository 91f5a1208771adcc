import CLibPQ

/// What every connection of a store is opened with, and the secrets its messages must never show.
struct ConnectionSettings: Sendable {
    /// The connection string as the app gave it (`host=… dbname=…` or `postgresql://…`).
    let connectionString: String
    /// The connection string's password, when it has one: removed from every message.
    private let password: String?
    /// `lock_timeout`, in milliseconds.
    let lockTimeoutMilliseconds: Int

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
        var password: String?
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let value = option.pointee.val {
                let text = String(cString: value)
                if !text.isEmpty { password = text }
            }
            option += 1
        }
        self.connectionString = connectionString
        self.password = password
        self.lockTimeoutMilliseconds = Int(milliseconds)
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
        "ConnectionSettings(connection string <redacted>, lock_timeout \(lockTimeoutMilliseconds) ms)"
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
