import Bearer
import BearerPostgres
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

enum StoreFixtures {
    static let server = AuthorizationServer(
        issuer: url("https://auth.example.com"),
        authorizationEndpoint: url("https://auth.example.com/authorize"),
        tokenEndpoint: url("https://auth.example.com/token"),
        revocationEndpoint: url("https://auth.example.com/revoke")
    )

    static let client = Client(id: "client-123", redirectURI: url("com.example.app:/oauth2callback"))

    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    static func url(_ string: String) -> URL {
        guard let url = URL(string: string) else { fatalError("bad test URL \(string)") }
        return url
    }

    /// A session whose access token expires at `expiresAt`.
    static func state(
        access: String = "at-1", refresh: String = "rt-1", expiresAt: Date = epoch.addingTimeInterval(3600)
    ) -> AuthState {
        AuthState(
            server: server,
            client: client,
            accessToken: AccessToken(access),
            accessTokenExpiresAt: expiresAt,
            refreshToken: RefreshToken(refresh),
            grantedScopes: ["openid", "email"],
            user: AuthState.User(subject: "user-1", email: "user@example.com")
        )
    }

    /// A table name of its own for each test, so tests sharing a server do not meet.
    static func uniqueTable() -> String {
        "sessions_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
    }

    /// The lock timeout of stores whose tests are about turns and exclusion, not about how long a
    /// wait may last: long enough that only a lock never given back exhausts it, however loaded the
    /// machine running every suite at once is.
    static let patientLockTimeout: Duration = .seconds(120)

    /// A store on the suite's server with a table of its own, its schema prepared.
    static func store(
        table: String? = nil, poolSize: Int = 2, lockTimeout: Duration = .seconds(10),
        sealing: PostgresSessionStore.Sealing? = nil
    ) async throws -> PostgresSessionStore {
        let store = try PostgresSessionStore(
            connectionString: try PostgresTestServer.running.connectionString,
            table: table ?? uniqueTable(),
            poolSize: poolSize,
            lockTimeout: lockTimeout,
            sealing: sealing
        )
        try await store.prepareSchema()
        return store
    }

    /// A token response carrying new tokens that expire in an hour.
    static func tokenResponse(access: String, refresh: String) -> String {
        #"{"access_token":"\#(access)","token_type":"Bearer","expires_in":3600,"refresh_token":"\#(refresh)"}"#
    }
}
