/// Helpers for OAuth scope lists (RFC 6749 §3.3: space-delimited, case-sensitive, unordered).
@_spi(Internals) public enum Scopes {
    /// Splits a `scope` parameter into scopes.
    ///
    /// - Parameter text: The space-delimited value.
    /// - Returns: The scopes, in order, without empty entries or duplicates.
    @_spi(Internals) public static func parse(_ text: String) -> [String] {
        deduplicated(text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init))
    }

    /// Checks that every scope is a `scope-token` of RFC 6749 §3.3: one or more `NQCHAR`
    /// (`%x21 / %x23-5B / %x5D-7E`), so no space, `"`, `\`, control character or non-ASCII
    /// character.
    ///
    /// - Parameter scopes: The scopes, each given separately.
    /// - Throws: ``BearerError/Kind/invalidScope`` naming the first bad scope.
    static func check(_ scopes: [String]) throws {
        for scope in scopes where scope.isEmpty || !scope.utf8.allSatisfy(isNQChar) {
            throw BearerError.invalidScope(
                "The scope \(describe(scope)) is empty or has a character that scopes cannot contain (a space, "
                    + "a quote, a backslash or a control character; RFC 6749 §3.3). Pass each scope separately, "
                    + "as the server documents it."
            )
        }
    }

    private static func isNQChar(_ byte: UInt8) -> Bool {
        byte == 0x21 || (0x23...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
    }

    /// The scope quoted, with control characters shown as `\u{…}` so a message never carries them.
    private static func describe(_ scope: String) -> String {
        "\""
            + scope.unicodeScalars.map {
                $0.properties.generalCategory == .control ? "\\u{\(String($0.value, radix: 16))}" : String($0)
            }.joined() + "\""
    }

    /// Removes duplicates, keeping the first of each.
    ///
    /// - Parameter scopes: The scopes.
    /// - Returns: The scopes without duplicates, in their first order.
    static func deduplicated(_ scopes: [String]) -> [String] {
        var seen: Set<String> = []
        return scopes.filter { seen.insert($0).inserted }
    }
}

extension Scopes {
    /// Google's short scope names and the URLs they stand for; each pair names one permission.
    static let googleAliases: [String: String] = [
        "email": "https://www.googleapis.com/auth/userinfo.email",
        "profile": "https://www.googleapis.com/auth/userinfo.profile",
    ]

    /// The canonical form of a scope: Google's long `userinfo` URLs become `email` and `profile`.
    ///
    /// - Parameter scope: A scope.
    /// - Returns: The scope, or its short alias.
    static func normalized(_ scope: String) -> String {
        for (short, long) in googleAliases where scope == long {
            return short
        }
        return scope
    }

    /// Whether `granted` covers `scope`, treating Google's aliases as equal.
    ///
    /// - Parameters:
    ///   - granted: The granted scopes.
    ///   - scope: The scope to look for.
    /// - Returns: `true` when it is granted.
    static func contains(_ granted: [String], _ scope: String) -> Bool {
        let wanted = normalized(scope)
        return granted.contains { normalized($0) == wanted }
    }
}
