#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension FormEncoding {
    /// `endpoint` with `pairs` added to its query: what it already has is kept, less the
    /// parameters named in `replaced`, which the pairs set.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint, perhaps with a query of its own.
    ///   - pairs: The parameters to add, in order.
    ///   - replaced: The names the endpoint's own query may not carry.
    /// - Returns: The URL, or `nil` when the endpoint cannot carry a query.
    static func url(_ endpoint: URL, adding pairs: [(name: String, value: String)], replacing replaced: Set<String>)
        -> URL?
    {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
        let existing = (components?.percentEncodedQuery ?? "")
            .split(separator: "&")
            .filter { segment in
                let name = segment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                return !replaced.contains(decode(name))
            }
            .map(String.init)
        components?.percentEncodedQuery = (existing + [encode(pairs)]).joined(separator: "&")
        return components?.url
    }
}
