#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the loopback listener does with one HTTP request head: the decision, kept apart from the
/// sockets so it can be tested with plain strings.
///
/// Only a `GET` of the redirect path, sent to the registered `Host`, whose one `state` equals the
/// pending request's (RFC 8252 §7.3, RFC 6749 §10.12), is the answer: error answers and answers
/// that fail the `iss` check (RFC 9207 §2.4) included, since only the state proves an answer
/// belongs to the sign-in, and those end it with a typed error. Everything else is refused and the
/// listener keeps waiting, so a local process or a web page that guesses the port cannot end a
/// sign-in.
enum LoopbackRequest: Equatable {
    /// The browser's redirect: the request target, with its query.
    case redirect(target: String)
    /// Not the answer: refuse with this status and text, and keep waiting.
    case refuse(status: String, message: String)
    /// The one-time start page (see ``LoopbackStartPage``): the browser is sent on to the page.
    case start

    /// The largest request head read, in bytes.
    static let maximumHeadSize = 16_384

    /// Decides what `head` is.
    ///
    /// - Parameters:
    ///   - head: The request line and headers, up to the blank line.
    ///   - path: The redirect path.
    ///   - hosts: The `Host` values that name the listener (`127.0.0.1:PORT`, or `localhost:PORT`
    ///     when that is the redirect URI's), compared case-insensitively.
    ///   - expected: The pending request's `state` and issuer.
    static func classify(
        _ head: String,
        path: String,
        hosts: Set<String>,
        expecting expected: RedirectExpectation,
        startPath: String? = nil
    ) -> LoopbackRequest {
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = (lines.first ?? "").split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else {
            return .refuse(status: "400 Bad Request", message: "Bad request.")
        }
        guard parts[0] == "GET" else {
            return .refuse(status: "400 Bad Request", message: "Only the browser's redirect (GET) is accepted here.")
        }
        let target = String(parts[1])
        let targetPath = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard targetPath == path || (startPath.map { targetPath == $0 } ?? false) else {
            return .refuse(status: "404 Not Found", message: "Not found.")
        }
        let hostValues = lines.dropFirst().compactMap(headerValue(named: "host"))
        guard hostValues.count == 1, let host = hostValues.first, hosts.contains(host.lowercased()) else {
            return .refuse(status: "400 Bad Request", message: "This address does not serve that host.")
        }
        if targetPath != path { return .start }
        let query = target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        guard expected.accepts(query: query) else {
            return .refuse(
                status: "400 Bad Request",
                message: "This is not the answer to the pending sign-in; the sign-in goes on."
            )
        }
        return .redirect(target: target)
    }

    /// A function that returns the value of the header `name` in a header line, trimmed, or `nil`.
    private static func headerValue(named name: String) -> (Substring) -> String? {
        { line in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name else { return nil }
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            return String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
    }
}
