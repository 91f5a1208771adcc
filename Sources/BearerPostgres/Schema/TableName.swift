/// The sessions table's name, checked once and always written into SQL as quoted identifiers, so
/// that a reserved word (`user`) or a quoted name (`"Auth"."Sessions"`) means exactly one table.
///
/// Each part is either a plain identifier (lower-case letters, digits and `_`, not starting with
/// a digit), which PostgreSQL reads as the same name quoted, or a double-quoted identifier
/// (any characters but `"` and NUL). A part is 1 to 63 bytes long, PostgreSQL's limit.
struct TableName: Sendable, Hashable {
    /// The parts as PostgreSQL stores them: the schema, when one was named, then the table.
    let parts: [String]

    /// Checks `spelling` (`bearer_sessions`, `auth.bearer_sessions`, `"Auth"."Sessions"`).
    ///
    /// - Throws: ``PostgresSessionStoreError/Kind/invalidConfiguration`` for any other spelling.
    init(_ spelling: String) throws {
        var parts: [String] = []
        var rest = Substring(spelling)
        while true {
            let part: String
            if rest.first == "\"" {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else { throw Self.invalid(spelling) }
                part = String(body[..<close])
                guard !part.unicodeScalars.contains("\0") else { throw Self.invalid(spelling) }
                rest = body[body.index(after: close)...]
            } else {
                let end = rest.firstIndex(of: ".") ?? rest.endIndex
                part = String(rest[..<end])
                guard Self.isPlainIdentifier(part) else { throw Self.invalid(spelling) }
                rest = rest[end...]
            }
            guard (1...63).contains(part.utf8.count) else { throw Self.invalid(spelling) }
            parts.append(part)
            if rest.isEmpty { break }
            guard rest.first == ".", parts.count < 2 else { throw Self.invalid(spelling) }
            rest = rest.dropFirst()
        }
        self.parts = parts
    }

    /// The table in the same schema whose name is this one's followed by `suffix`, or `nil` when
    /// that name would be longer than PostgreSQL's 63 bytes.
    func suffixed(_ suffix: String) -> TableName? {
        guard let last = parts.last, last.utf8.count + suffix.utf8.count <= 63 else { return nil }
        return TableName(parts: parts.dropLast() + [last + suffix])
    }

    /// The quoted name of an index on this table: the table's own name followed by `suffix`, cut
    /// to PostgreSQL's 63 bytes (an index is created in its table's schema, so it is not qualified).
    func indexName(_ suffix: String) -> String {
        var name = ""
        for scalar in (parts.last ?? "").unicodeScalars {
            guard name.utf8.count + String(scalar).utf8.count + suffix.utf8.count <= 63 else { break }
            name.unicodeScalars.append(scalar)
        }
        return "\"" + name + suffix + "\""
    }

    private init(parts: [String]) {
        self.parts = parts
    }

    /// The name as SQL text: each part double-quoted.
    var sql: String {
        parts.map { "\"\($0)\"" }.joined(separator: ".")
    }

    private static func isPlainIdentifier(_ part: String) -> Bool {
        guard let first = part.unicodeScalars.first, (first >= "a" && first <= "z") || first == "_" else {
            return false
        }
        return part.unicodeScalars.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "_" }
    }

    private static func invalid(_ spelling: String) -> PostgresSessionStoreError {
        .invalidConfiguration(
            "The table name \(spelling.debugDescription) is not one PostgreSQL reads as a single table: use "
                + "lower-case letters, digits and _ (not starting with a digit), or a double-quoted name without "
                + "quotes inside, at most 63 bytes, optionally after a schema name and a dot.")
    }
}
