/// Helpers for OAuth scope lists (RFC 6749 §3.3: space-delimited, case-sensitive, unordered).
public enum Scopes {
    /// Splits a `scope` parameter into scopes.
    ///
    /// - Parameter text: The space-delimited value.
    /// - Returns: The scopes, in order, without empty entries or duplicates.
    public static func parse(_ text: String) -> [String] {
        deduplicated(text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init))
    }

    /// Removes duplicates, keeping the first of each.
    ///
    /// - Parameter scopes: The scopes.
    /// - Returns: The scopes without duplicates, in their first order.
    public static func deduplicated(_ scopes: [String]) -> [String] {
        var seen: Set<String> = []
        return scopes.filter { seen.insert($0).inserted }
    }
}
