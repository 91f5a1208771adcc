/// What a ``ClientAssertion`` names as its audience (`aud`): whom it is for.
///
/// ```swift
/// var configuration = AuthSession.Configuration()
/// configuration.clientAssertionAudience = .endpoint  // a server that accepts only its endpoint's URL
/// ```
public enum ClientAssertionAudience: Sendable, Hashable {
    /// The server's issuer identifier, as one string: what FAPI 2.0 and RFC 7523bis require, so an
    /// assertion meant for one server is refused by every other. The default.
    case issuer
    /// The URL of the endpoint the assertion is sent to (the token endpoint for token requests,
    /// the pushed authorization endpoint for pushes, …), which OpenID Connect Core §9 suggests and
    /// some servers accept alone, such as glewlwyd 2.7. Use it only for such a server: an endpoint
    /// URL names the server less surely than its issuer does. ``SecurityProfile/fapi2`` refuses it.
    case endpoint
}
