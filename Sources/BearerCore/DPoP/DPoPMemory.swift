#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the sessions configured with one ``DPoPSettings`` value remember between requests: the
/// latest `DPoP-Nonce` (RFC 9449 §8, §9) each origin sent (the authorization server and each
/// resource server keep their own, taken from every answer, successful ones included), and the key
/// last rebuilt from a record, so that a session does not rebuild it for each request.
final class DPoPMemory: Sendable {
    private let lock = Lock()
    nonisolated(unsafe) private var byOrigin: [String: String] = [:]
    nonisolated(unsafe) private var lastKey: (record: DPoPKeyRecord, key: any DPoPKey)?

    /// The key last rebuilt from `record`, if it is still the last one.
    func key(for record: DPoPKeyRecord) -> (any DPoPKey)? {
        lock.withLock { lastKey?.record == record ? lastKey?.key : nil }
    }

    /// Remembers `key`, rebuilt from `record`.
    func keep(_ key: any DPoPKey, for record: DPoPKeyRecord) {
        lock.withLock { lastKey = (record, key) }
    }

    /// The latest nonce `url`'s origin sent, if any.
    func nonce(for url: URL) -> String? {
        let origin = Self.origin(of: url)
        return lock.withLock { byOrigin[origin] }
    }

    /// Keeps the nonce `response` carries for `url`'s origin, and returns it; `nil` when it
    /// carries none, or one that is not a valid nonce (RFC 9449 §8.1: `1*NQCHAR`).
    @discardableResult
    func keep(from response: TransportResponse, for url: URL) -> String? {
        guard let nonce = response.headerFields["DPoP-Nonce"], keep(nonce, for: url) else { return nil }
        return nonce
    }

    /// Keeps `nonce` for `url`'s origin, as a server's answer to another client gave it.
    ///
    /// - Returns: Whether it was kept: `false` for a nonce that is not `1*NQCHAR`.
    @discardableResult
    func keep(_ nonce: String, for url: URL) -> Bool {
        guard Self.isValid(nonce) else { return false }
        let origin = Self.origin(of: url)
        lock.withLock { byOrigin[origin] = nonce }
        return true
    }

    /// `scheme://host:port`, lowercased, the port explicit.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "http" ? 80 : 443)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    /// Whether `nonce` is `1*NQCHAR` (`%x21 / %x23-5B / %x5D-7E`) and of a sane length.
    static func isValid(_ nonce: String) -> Bool {
        !nonce.isEmpty && nonce.utf8.count <= 1024
            && nonce.utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }
}
