#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A server's JWK Set (RFC 7517 §5): the public keys its `jwks_uri` publishes, of which Bearer
/// keeps those it can verify with.
public struct JSONWebKeySet: Sendable, Hashable {
    /// The largest set read (64 KiB): a provider's set is a few kilobytes.
    static let maximumSize = 64 << 10
    /// The most keys read from one set.
    static let maximumKeyCount = 64

    /// The keys Bearer can use; others in the set (other types, curves, encryption keys with
    /// another `kty`, malformed entries) are left out, as RFC 7517 §5 says.
    public let keys: [JSONWebKey]

    /// Creates a set of `keys`.
    ///
    /// - Parameter keys: The keys.
    public init(keys: [JSONWebKey]) {
        self.keys = keys
    }

    /// Reads a JWK Set document.
    ///
    /// - Parameter json: The document.
    /// - Throws: ``BearerError/Kind/invalidResponse`` when it is larger than 64 KiB, not a JSON
    ///   object with a `keys` array, or lists more than 64 keys.
    public init(json: Data) throws {
        guard json.count <= Self.maximumSize else {
            throw BearerError.invalidResponse(
                "The server's key set is \(json.count) bytes; Bearer reads at most \(Self.maximumSize).")
        }
        guard case .object(let document)? = try? JSONParser.parse(json), case .array(let entries)? = document["keys"]
        else {
            throw BearerError.invalidResponse(
                "The server's key set is not a JSON object with a keys array (RFC 7517 §5).")
        }
        guard entries.count <= Self.maximumKeyCount else {
            throw BearerError.invalidResponse(
                "The server's key set lists \(entries.count) keys; Bearer reads at most \(Self.maximumKeyCount).")
        }
        keys = entries.compactMap { entry in
            guard case .object(let members) = entry else { return nil }
            return JSONWebKey(members: members)
        }
    }

    /// The keys that may check a signature by `algorithm` from the key named `keyID`: the keys with
    /// that `kid` when the token names one, every fitting key when it does not.
    func candidates(for algorithm: JWSAlgorithm, keyID: String?) -> [JSONWebKey] {
        keys.filter { $0.fits(algorithm) && (keyID == nil || $0.keyID == keyID) }
    }
}
