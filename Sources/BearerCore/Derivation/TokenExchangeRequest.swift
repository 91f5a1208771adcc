#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What a token exchange sends (RFC 8693 §2.1): the token that says who the request is for, the
/// one that says who acts, and what the new token is to be for.
///
/// ```swift
/// let request = TokenExchangeRequest(
///     subjectToken: SecurityToken(idToken.value), subjectTokenType: .idToken,
///     requestedTokenType: .accessToken, audiences: ["https://api.example.com"])
/// ```
///
/// Its descriptions never show a token.
public struct TokenExchangeRequest: Sendable, Hashable {
    /// The token that represents the party the new token is for.
    public var subjectToken: SecurityToken
    /// What ``subjectToken`` is.
    public var subjectTokenType: TokenTypeIdentifier
    /// The token that represents the party acting for the subject (delegation, RFC 8693 §1.1);
    /// `nil` for impersonation.
    public var actorToken: SecurityToken?
    /// What ``actorToken`` is; sent only with it.
    public var actorTokenType: TokenTypeIdentifier?
    /// The kind of token wanted; `nil` leaves it to the server.
    public var requestedTokenType: TokenTypeIdentifier?
    /// The logical names of the services the new token is for (`audience`).
    public var audiences: [String]
    /// The resources the new token is for (RFC 8707 `resource`): absolute URIs without a fragment.
    public var resources: [URL]
    /// The scopes wanted; empty leaves them to the server.
    public var scopes: [String]

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - subjectToken: The subject token.
    ///   - subjectTokenType: What it is.
    ///   - actorToken: The actor token, for delegation.
    ///   - actorTokenType: What it is.
    ///   - requestedTokenType: The kind of token wanted.
    ///   - audiences: The services the new token is for.
    ///   - resources: The resources the new token is for.
    ///   - scopes: The scopes wanted.
    public init(
        subjectToken: SecurityToken,
        subjectTokenType: TokenTypeIdentifier,
        actorToken: SecurityToken? = nil,
        actorTokenType: TokenTypeIdentifier? = nil,
        requestedTokenType: TokenTypeIdentifier? = nil,
        audiences: [String] = [],
        resources: [URL] = [],
        scopes: [String] = []
    ) {
        self.subjectToken = subjectToken
        self.subjectTokenType = subjectTokenType
        self.actorToken = actorToken
        self.actorTokenType = actorTokenType
        self.requestedTokenType = requestedTokenType
        self.audiences = audiences
        self.resources = resources
        self.scopes = scopes
    }

    /// The grant type of a token exchange.
    static let grantType = "urn:ietf:params:oauth:grant-type:token-exchange"

    /// The body parameters, in the order RFC 8693 §2.1 lists them, once the request is checked.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` for an empty subject token, an actor
    ///   token without its type (or a type without the token), or a resource that is not an
    ///   absolute URI without a fragment. Nothing is sent.
    func formParameters() throws -> [FormParameter] {
        guard !subjectToken.value.isEmpty, !subjectTokenType.rawValue.isEmpty else {
            throw BearerError.invalidConfiguration(
                "A token exchange needs a subject token and its type (RFC 8693 §2.1); nothing was sent.")
        }
        guard (actorToken == nil) == (actorTokenType == nil), actorToken?.value.isEmpty != true else {
            throw BearerError.invalidConfiguration(
                "A token exchange's actor token and actor_token_type go together (RFC 8693 §2.1); give both or "
                    + "neither. Nothing was sent.")
        }
        for resource in resources where resource.scheme == nil || resource.fragment != nil {
            throw BearerError.invalidConfiguration(
                "A token exchange's resource must be an absolute URI without a fragment (RFC 8693 §2.1); "
                    + "\"\(resource.absoluteString)\" is not. Nothing was sent.")
        }
        var parameters = [FormParameter("grant_type", Self.grantType)]
        parameters += resources.map { FormParameter("resource", $0.absoluteString) }
        parameters += audiences.map { FormParameter("audience", $0) }
        if !scopes.isEmpty { parameters.append(FormParameter("scope", scopes.joined(separator: " "))) }
        if let requestedTokenType {
            parameters.append(FormParameter("requested_token_type", requestedTokenType.rawValue))
        }
        parameters.append(FormParameter("subject_token", subjectToken.value))
        parameters.append(FormParameter("subject_token_type", subjectTokenType.rawValue))
        if let actorToken, let actorTokenType {
            parameters.append(FormParameter("actor_token", actorToken.value))
            parameters.append(FormParameter("actor_token_type", actorTokenType.rawValue))
        }
        return parameters
    }
}

extension TokenExchangeRequest: CustomStringConvertible {
    /// The token types, audiences, resources and scopes; never a token.
    public var description: String {
        var parts = ["subject: \(subjectTokenType)"]
        if let actorTokenType { parts.append("actor: \(actorTokenType)") }
        if let requestedTokenType { parts.append("requested: \(requestedTokenType)") }
        if !audiences.isEmpty { parts.append("audience: \(audiences.joined(separator: " "))") }
        if !resources.isEmpty { parts.append("resource: \(resources.map(\.absoluteString).joined(separator: " "))") }
        if !scopes.isEmpty { parts.append("scope: \(scopes.joined(separator: " "))") }
        return "TokenExchangeRequest(\(parts.joined(separator: ", ")))"
    }
}
