/// Proof Key for Code Exchange (RFC 7636): a secret code verifier and its S256 code challenge.
///
/// The verifier stays on the device until the code exchange; the challenge goes in the
/// authorization request. Only the `S256` method is ever used (RFC 7636 §4.2); `plain` is never sent.
///
/// ```swift
/// let pkce = PKCE()          // 43 characters from 32 random bytes
/// pkce.challenge             // base64url(SHA-256(verifier))
/// ```
struct PKCE: Sendable, Hashable {
    /// The `code_challenge_method` value: always `S256`.
    static let challengeMethod = "S256"

    /// The shortest verifier RFC 7636 §4.1 allows.
    static let minimumVerifierLength = 43
    /// The longest verifier RFC 7636 §4.1 allows.
    static let maximumVerifierLength = 128

    /// The code verifier: a secret, sent only to the token endpoint.
    let verifier: String
    /// The code challenge: `BASE64URL(SHA256(ASCII(verifier)))` (RFC 7636 §4.2).
    let challenge: String

    /// Creates a verifier of 43 characters from 32 bytes of the system's secure random generator.
    init() {
        var generator = SystemRandomNumberGenerator()
        self.init(using: &generator)
    }

    /// Creates a verifier from 32 bytes of `generator`, which must be cryptographically secure
    /// outside tests.
    ///
    /// - Parameter generator: The source of randomness.
    init(using generator: inout some RandomNumberGenerator) {
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let verifier = Base64URL.encode(bytes)
        self.verifier = verifier
        self.challenge = Self.challenge(for: verifier)
    }

    /// Wraps an existing verifier after checking it.
    ///
    /// - Parameter verifier: 43 to 128 characters of `A–Z a–z 0–9 - . _ ~` (RFC 7636 §4.1).
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the length or a character is wrong.
    init(verifier: String) throws {
        let length = verifier.utf8.count
        guard (Self.minimumVerifierLength...Self.maximumVerifierLength).contains(length) else {
            throw BearerError.invalidConfiguration(
                "A PKCE code verifier must have 43 to 128 characters; this one has \(length). Create one with PKCE()."
            )
        }
        guard verifier.utf8.allSatisfy(\.isUnreservedInURI) else {
            throw BearerError.invalidConfiguration(
                "A PKCE code verifier may only contain A–Z a–z 0–9 - . _ ~ (RFC 7636 §4.1). Create one with PKCE()."
            )
        }
        self.verifier = verifier
        self.challenge = Self.challenge(for: verifier)
    }

    /// Computes the S256 challenge of a verifier.
    ///
    /// - Parameter verifier: The code verifier.
    /// - Returns: `BASE64URL(SHA256(ASCII(verifier)))`.
    static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(verifier.utf8))
    }
}

extension PKCE: Codable {
    private enum CodingKeys: String, CodingKey {
        case verifier
    }

    /// Decodes a saved verifier and checks it again.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(verifier: try container.decode(String.self, forKey: .verifier))
    }

    /// Encodes the verifier; the challenge is derived from it.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(verifier, forKey: .verifier)
    }
}

extension PKCE: RedactedDescription {
    /// Shows the challenge, never the verifier.
    var description: String { "PKCE(verifier: <redacted>, challenge: \(challenge), method: S256)" }

    /// A mirror that shows the challenge only.
    var customMirror: Mirror { Mirror(self, children: ["challenge": challenge], displayStyle: .struct) }
}
