#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuthState {
    /// This session without its tokens, as a signed-out session keeps it.
    func forgettingTokens() -> AuthState {
        var state = self
        state.accessToken = nil
        state.refreshToken = nil
        state.idToken = nil
        return state
    }
}

extension AuthState {
    /// The `error_uri` of the mark a session the provider ended carries: the specification that
    /// ended it.
    static let providerLogoutErrorURI = "https://openid.net/specs/openid-connect-backchannel-1_0.html"

    /// This session as one the provider ended (OpenID Connect Back-Channel Logout 1.0): needing a
    /// new sign-in (`login_required` without an HTTP status, naming where the user signed out, its
    /// `error_uri` the specification), its tokens kept so that a disconnect still revokes them. A
    /// session already marked keeps its mark.
    @_spi(Fleet) public func endedAtProvider() -> AuthState {
        guard signInRequiredError == nil else { return self }
        var ended = self
        ended.signInRequiredError = OAuthError(
            code: .loginRequired,
            errorDescription: "The user signed out at \(String(server.issuer.absoluteString.printable.prefix(120))) "
                + "(back-channel logout); sign in again.",
            errorURI: Self.providerLogoutErrorURI)
        return ended
    }

    /// Whether the provider ended this session (see ``endedAtProvider()``): no refresh of its grant
    /// made before may lift the mark, only a new sign-in.
    var isEndedAtProvider: Bool {
        guard let error = signInRequiredError else { return false }
        return error.code == .loginRequired && error.statusCode == nil && error.errorURI == Self.providerLogoutErrorURI
    }
}
