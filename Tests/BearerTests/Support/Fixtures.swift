import Bearer
import BearerTestSupport
import Foundation

@_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Shared test configuration: a server and clients that exist only in tests.
enum Fixtures {
    static let issuer = "https://auth.example.com"

    static let server = AuthorizationServer(
        issuer: url(issuer),
        authorizationEndpoint: url("https://auth.example.com/authorize"),
        tokenEndpoint: url("https://auth.example.com/token"),
        revocationEndpoint: url("https://auth.example.com/revoke")
    )

    static let publicClient = Client(id: "client-123", redirectURI: url("com.example.app:/oauth2callback"))

    static let confidentialClient = Client(
        id: "client:with&odd chars",
        secret: ClientSecret("s3cret+/=:"),
        redirectURI: url("com.example.app:/oauth2callback")
    )

    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    static func url(_ string: String) -> URL {
        guard let url = URL(string: string) else { fatalError("bad test URL \(string)") }
        return url
    }

    static func request(
        scopes: [String] = ["openid", "email", "drive.readonly"],
        server: AuthorizationServer = server,
        client: Client = publicClient
    ) throws -> AuthorizationRequest {
        try AuthorizationRequest(server: server, client: client, scopes: scopes)
    }

    static func idToken(
        for request: AuthorizationRequest,
        subject: String = "user-1",
        issuedAt: Date = epoch,
        extra: [String: JSONValue] = [:]
    ) -> String {
        var claims: [String: JSONValue] = [
            "iss": .string(request.server.issuer.absoluteString),
            "sub": .string(subject),
            "aud": .string(request.client.id),
            "iat": .number(issuedAt.timeIntervalSince1970),
            "exp": .number(issuedAt.timeIntervalSince1970 + 3600),
            "email": .string("user@example.com"),
            "email_verified": .bool(true),
        ]
        if let nonce = request.nonce { claims["nonce"] = .string(nonce) }
        claims.merge(extra) { _, new in new }
        return TestTokens.jwt(claims)
    }

    static func redirect(for request: AuthorizationRequest, query: String) -> URL {
        url(request.redirectURI.absoluteString + "?" + query)
    }
}

extension TransportRequest {
    /// The form body as a dictionary.
    var formBody: [String: String] {
        let text = body.map { String(decoding: $0, as: UTF8.self) } ?? ""
        return Dictionary(FormEncoding.decodePairs(text).map { ($0.name, $0.value) }) { _, last in last }
    }
}
