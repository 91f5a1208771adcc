/// Helpers for OAuth scope lists (RFC 6749 §3.3: space-delimited, case-sensitive, unordered).
package enum Scopes {
    /// Splits a `scope` parameter into scopes.
    ///
    /// - Parameter text: The space-delimited value.
    /// - Returns: The scopes, in order, without empty entries or duplicates.
    package static func parse(_ text: String) -> [String] {
        deduplicated(text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init))
    }

    /// Removes duplicates, keeping the first of each.
    ///
    /// - Parameter scopes: The scopes.
    /// - Returns: The scopes without duplicates, in their first order.
    package static func deduplicated(_ scopes: [String]) -> [String] {
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
    package static func normalized(_ scope: String) -> String {
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
    package static func contains(_ granted: [String], _ scope: String) -> Bool {
        let wanted = normalized(scope)
        return granted.contains { normalized($0) == wanted }
    }
}
