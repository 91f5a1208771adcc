#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The store keys of resource sessions and client registrations: readable, safe as file names
/// (letters, digits, `.`, `-`), and unique by a hash of what they name.
///
/// - A session: `resource-<host-port-path>-<hash of the resource>-<hash of the issuer>`, so one
///   resource's sessions at any server share a prefix, found without the network.
/// - A registration: `registration-<host-port-path>-<hash of the issuer>`.
enum ResourceSessionKeys {
    /// The key of `resource`'s session with tokens from `issuer`.
    static func session(for resource: ProtectedResource, issuer: URL) -> String {
        sessionPrefix(for: resource) + digest(issuer.absoluteString)
    }

    /// The prefix shared by every session of `resource`.
    static func sessionPrefix(for resource: ProtectedResource) -> String {
        "resource-" + readable(resource.identifier) + "-" + digest(resource.description) + "-"
    }

    /// The key of the client registered at the server `issuer`.
    static func registration(at issuer: URL) -> String {
        "registration-" + readable(issuer) + "-" + digest(issuer.absoluteString)
    }

    /// Whether `key` names a client registration rather than a session.
    static func isRegistration(_ key: String) -> Bool {
        key.hasPrefix("registration-")
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
    private static func digest(_ text: String) -> String {
        SHA256.hash(Array(text.utf8)).prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}
