#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A page of the loopback listener that sends the browser on to another, once: what a loopback
/// agent opens instead of a page whose address holds a credential (a provider logout's
/// `id_token_hint`), so that the credential never appears on a command line (the browser
/// launcher's arguments, which every local user can read) and reaches the browser only in a
/// redirect.
struct LoopbackStartPage: Sendable {
    /// The path the browser opens: `/start/` and 32 random bytes, base64url.
    let path: String
    /// Where the browser is sent from there.
    let page: URL

    /// A start page for `page`, at a fresh random path.
    init(page: URL) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        path = "/start/" + Base64URL.encode(bytes)
        self.page = page
    }

    /// The address to open on the listener at `redirectURI`'s host and port.
    func address(on redirectURI: URL) -> URL? {
        var components = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false)
        components?.percentEncodedPath = path
        components?.percentEncodedQuery = nil
        return components?.url
    }
}
