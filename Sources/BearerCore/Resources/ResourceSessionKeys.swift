#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The store keys of resource sessions and client registrations: readable, safe as file names
/// (letters, digits, `.`, `-`), unique by a hash of what they name, and under a `bearer-` prefix
/// that an app's own keys are unlikely to take.
///
/// - A session: `bearer-resource-<host-port-path>-<hash of the resource>-<hash of the issuer>`,
///   so one resource's sessions at any server share a prefix, found without the network.
/// - A session from a server the resource no longer names, whose tokens could not be revoked:
///   `bearer-retired-…`, the rest of its key as it was.
/// - A registration: `bearer-registration-<host-port-path>-<hash of the issuer>`.
enum ResourceSessionKeys {
    private static let sessionMark = "bearer-resource-"
    private static let retiredMark = "bearer-retired-"
    private static let registrationMark = "bearer-registration-"
    /// The length of a hash in a key: 8 bytes in hexadecimal.
    private static let digestLength = 16

    /// The key of `resource`'s session with tokens from `issuer`.
    static func session(for resource: ProtectedResource, issuer: URL) -> String {
        sessionPrefix(for: resource) + digest(issuer.absoluteString)
    }

    /// The prefix shared by every session of `resource`.
    static func sessionPrefix(for resource: ProtectedResource) -> String {
        sessionMark + readable(resource.identifier) + "-" + digest(resource.description) + "-"
    }

    /// Whether `key` is the key of a session of `resource` (at any server), not merely one that
    /// starts like it.
    static func isSession(_ key: String, of resource: ProtectedResource) -> Bool {
        let prefix = sessionPrefix(for: resource)
        guard key.hasPrefix(prefix) else { return false }
        return isDigest(key.utf8.dropFirst(prefix.utf8.count))
    }

    /// Whether `text` is a hash as ``digest(_:)`` writes it: 16 lowercase hexadecimal digits.
    static func isDigest(_ text: Substring.UTF8View) -> Bool {
        text.count == digestLength
            && text.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            }
    }

    /// Where a session kept under `key` is moved once its resource names another server.
    static func retired(_ key: String) -> String {
        retiredMark + key.dropFirst(sessionMark.count)
    }

    /// The key of the client registered at the server `issuer`.
    static func registration(at issuer: URL) -> String {
        registrationMark + readable(issuer) + "-" + digest(issuer.absoluteString)
    }

    /// Whether `key` names a client registration rather than a session.
    static func isRegistration(_ key: String) -> Bool {
        key.hasPrefix(registrationMark)
    }

    /// `url`'s host, port and path with every other character a `-`, at most 60 characters.
    private static func readable(_ url: URL) -> String {
        let text = (url.host ?? "") + (url.port.map { "-\($0)" } ?? "") + url.path
        let characters = text.unicodeScalars.map { scalar -> Character in
            scalar.isASCIILetter || ("0"..."9").contains(scalar) || scalar == "." ? Character(scalar) : "-"
        }
        var readable = String(characters.prefix(60))
        while readable.hasSuffix("-") { readable.removeLast() }
        return readable
    }

    /// The first 8 bytes of the SHA-256 of `text`, in hexadecimal.
    static func digest(_ text: String) -> String {
        SHA256.hash(Array(text.utf8)).prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}
