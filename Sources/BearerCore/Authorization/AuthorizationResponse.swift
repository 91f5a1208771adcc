#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The result of a successful authorization: the code and what came with it (RFC 6749 §4.1.2).
struct AuthorizationResponse: Sendable, Hashable {
    /// The authorization code, to be exchanged once.
    let code: AuthorizationCode
    /// The `state` value, equal to the request's.
    let state: String
    /// The `iss` value (RFC 9207), when the server sent one.
    let issuer: String?
    /// Other parameters of the redirect (`scope`, `authuser`, `prompt`, …).
    let additionalParameters: [String: String]

    /// Checks a redirect against the request that caused it and extracts the code.
    ///
    /// The checks run in this order, and each failure is its own error:
    /// 1. the redirect matches the request's redirect URI (scheme, case-insensitively; host; port; path);
    /// 2. `state` equals the request's (RFC 6749 §10.12), on error responses too, so a forged error
    ///    cannot end a sign-in;
    /// 3. `iss`, when present, equals the issuer (RFC 9207 §2.4), on error responses too; when the
    ///    server promised `iss` and none came, an answer with a `code` is refused, while an error
    ///    answer (an `error` and no `code`) goes on to step 4, since it can only end the sign-in;
    /// 4. an `error` parameter becomes an ``OAuthError`` (RFC 6749 §4.1.2.1);
    /// 5. `code` is present and not empty.
    ///
    /// - Parameters:
    ///   - redirect: The URL the browser was sent to.
    ///   - request: The pending request.
    /// - Throws: ``OAuthError`` for an error redirect; otherwise ``BearerError`` with kind
    ///   ``BearerError/Kind/invalidRedirect``, ``BearerError/Kind/invalidRedirect``,
    ///   ``BearerError/Kind/issuerMismatch``, ``BearerError/Kind/invalidRedirect`` or
    ///   ``BearerError/Kind/invalidRedirect``.
    init(redirect: URL, for request: AuthorizationRequest) throws {
        try Self.checkMatches(redirect, expected: request.redirectURI)
        let parameters = try Self.queryParameters(of: redirect)

        guard let state = parameters["state"], ConstantTime.equals(state, request.state) else {
            throw BearerError.invalidRedirect(
                "The redirect's state does not match the pending request; it may be forged or from an older "
                    + "attempt. Start the sign-in again."
            )
        }
        let expectedIssuer = request.server.issuer.absoluteString
        if let issuer = parameters["iss"] {
            guard issuer == expectedIssuer else {
                throw BearerError.issuerMismatch(
                    "The redirect came from issuer \(issuer), not \(expectedIssuer) (RFC 9207); it may be a "
                        + "mix-up attack. Start the sign-in again."
                )
            }
        } else if request.server.sendsIssuerInAuthorizationResponse
            && !(parameters["error"] != nil && parameters["code"] == nil)
        {
            // An error answer without the promised iss (stock django-oauth-toolkit declines this
            // way) can only end the sign-in, so it ends with the server's error below.
            throw BearerError.invalidRedirect(
                "The redirect has no iss parameter although \(expectedIssuer) promises one (RFC 9207). "
                    + "Start the sign-in again."
            )
        }
        if let error = parameters["error"] {
            throw OAuthError(
                code: OAuthError.Code(rawValue: error),
                errorDescription: parameters["error_description"],
                errorURI: parameters["error_uri"]
            )
        }
        guard let code = parameters["code"], !code.isEmpty else {
            throw BearerError.invalidRedirect(
                "The redirect carries no authorization code. Start the sign-in again."
            )
        }
        self.code = AuthorizationCode(code)
        self.state = state
        self.issuer = parameters["iss"]
        self.additionalParameters = parameters.filter { !["code", "state", "iss"].contains($0.key) }
    }

    /// Checks scheme (case-insensitively), host (case-insensitively), port and path.
    static func checkMatches(_ redirect: URL, expected: URL) throws {
        guard let actual = URLComponents(url: redirect, resolvingAgainstBaseURL: false),
            let wanted = URLComponents(url: expected, resolvingAgainstBaseURL: false)
        else {
            throw BearerError.invalidRedirect("The redirect \(redirect.scheme ?? "")… is not a valid URL.")
        }
        let sameScheme = actual.scheme?.lowercased() == wanted.scheme?.lowercased()
        let sameHost = (actual.percentEncodedHost ?? "").lowercased() == (wanted.percentEncodedHost ?? "").lowercased()
        let samePort = actual.port == wanted.port
        let samePath = normalizedPath(actual.percentEncodedPath) == normalizedPath(wanted.percentEncodedPath)
        guard sameScheme, sameHost, samePort, samePath else {
            throw BearerError.invalidRedirect(
                "The redirect does not match the redirect URI \(expected.absoluteString) of the pending request; "
                    + "it is not the answer to this sign-in."
            )
        }
    }

    /// An empty path and `/` are the same for an authority-based URI (RFC 3986 §6.2.3).
    private static func normalizedPath(_ path: String) -> String {
        path.isEmpty ? "/" : path
    }

    /// The query's parameters; a repeated parameter is refused (RFC 6749 §3.1).
    static func queryParameters(of redirect: URL) throws -> [String: String] {
        let query = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        var parameters: [String: String] = [:]
        for (name, value) in FormEncoding.decodePairs(query) {
            guard parameters.updateValue(value, forKey: name) == nil else {
                throw BearerError.invalidRedirect(
                    "The redirect repeats the parameter \"\(name)\" (RFC 6749 §3.1 forbids it); start the sign-in again."
                )
            }
        }
        return parameters
    }
}

extension AuthorizationResponse: RedactedDescription {
    /// The issuer and extra parameters; never the code.
    var description: String {
        "AuthorizationResponse(code: <redacted>, issuer: \(issuer ?? "none"), "
            + "parameters: \(additionalParameters.keys.sorted().joined(separator: ", ")))"
    }
}
