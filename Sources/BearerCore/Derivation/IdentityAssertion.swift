#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An Identity Assertion JWT Authorization Grant (ID-JAG) an identity provider issued, checked
/// before it is sent on: it must be one, and be for the server, client and resource it goes to.
///
/// Its signature is the receiving server's to check, against the identity provider's keys; what
/// is checked here keeps a wrong or hostile answer from being sent to a server it was not issued
/// for, or from being taken for a session it cannot make.
struct IdentityAssertion: Sendable {
    /// The JWT's media type (`typ`), `oauth-id-jag+jwt`.
    static let mediaType = "oauth-id-jag+jwt"

    /// The assertion.
    let token: SecurityToken

    /// Checks `answer`, a token exchange's answer at the identity provider.
    ///
    /// - Parameters:
    ///   - answer: The answer.
    ///   - server: The server the assertion is for: its issuer must be the `aud`.
    ///   - client: The client at that server: its id must be the `client_id`.
    ///   - resource: The resource asked for, which a `resource` claim must name.
    ///   - clock: The time, and the skew allowed.
    /// - Throws: ``BearerError/Kind/invalidResponse``, saying what is wrong; nothing is sent on.
    init(
        _ answer: TokenExchangeResponse, for server: AuthorizationServer, as client: Client,
        resource: ProtectedResource?, clock: WallClock
    ) throws {
        guard answer.issuedTokenType == .identityAssertion else {
            throw Self.refusal("it is a \(answer.issuedTokenType.rawValue.printable), not an ID-JAG")
        }
        guard let jws = try? CompactJWS(answer.issuedToken.value), let claims = try? jws.payloadObject() else {
            throw Self.refusal("it is not a JWT")
        }
        guard jws.header.type?.lowercased() == Self.mediaType else {
            throw Self.refusal("its typ is not \(Self.mediaType)")
        }
        guard Self.strings(claims["aud"]).contains(where: { Self.sameIssuer($0, server.issuer) }) else {
            throw Self.refusal("it is for another audience than \(server.issuer.absoluteString)")
        }
        guard claims["client_id"]?.stringValue == client.id else {
            throw Self.refusal("it names another client than \(client.id)")
        }
        guard let expiry = claims["exp"]?.numberValue, expiry.isFinite,
            Date(timeIntervalSince1970: expiry).addingTimeInterval(clock.allowedSkew) > clock.now()
        else {
            throw Self.refusal("it has expired, or says no expiry")
        }
        if let resource, let named = claims["resource"] {
            guard Self.strings(named).contains(resource.description) else {
                throw Self.refusal("it is for another resource than \(resource.description)")
            }
        }
        token = answer.issuedToken
    }

    /// A claim that holds a string or an array of them, as an array.
    private static func strings(_ claim: JSONValue?) -> [String] {
        switch claim {
        case .string(let value)?: [value]
        case .array(let values)?: values.compactMap(\.stringValue)
        default: []
        }
    }

    /// Whether `audience` names `issuer`, with or without a trailing slash.
    private static func sameIssuer(_ audience: String, _ issuer: URL) -> Bool {
        func trimmed(_ text: String) -> Substring { text.hasSuffix("/") ? text.dropLast() : Substring(text) }
        return trimmed(audience) == trimmed(issuer.absoluteString)
    }

    private static func refusal(_ reason: String) -> BearerError {
        BearerError.invalidResponse(
            "The identity provider's ID-JAG was refused, because \(reason); it was not sent on. Check the "
                + "identity provider's configuration for this client.")
    }
}
