import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(CommandLine) @_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("AuthSession: entry points and the one error funnel")
struct AuthSessionEntryTests {
    struct AppError: Error, Equatable {
        let wrapped: String
    }

    static let rewriting = AuthSession.Configuration(rewriteError: { error in
        AppError(wrapped: (error as? BearerError)?.kind.description ?? "\(type(of: error))")
    })

    func state(subject: String = "user-1") -> AuthState {
        AuthState(
            server: Fixtures.server,
            client: Fixtures.publicClient,
            accessToken: AccessToken("at-1"),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(3600),
            refreshToken: RefreshToken("rt-1"),
            grantedScopes: ["email"],
            user: AuthState.User(subject: subject)
        )
    }

    @Test("save stores the sign-in before the session exists")
    func saveStoresFirst() async throws {
        let store = InMemorySessionStore()
        let session = try await AuthSession.save(
            state(), to: store, key: "main", transport: RecordingTransport(replies: []),
            clock: .fixed(Fixtures.epoch))
        #expect(try await store.load(key: "main") == state())
        #expect(await session.state == state())
        #expect(await session.canAuthorize)
    }

    @Test("save that cannot store gives no session, and its error goes through the funnel")
    func saveFailureGivesNoSession() async throws {
        let store = FaultyStore()
        await store.setFailsSaves(true)
        let error = await #expect(throws: AppError.self) {
            _ = try await AuthSession.save(
                state(), to: store, key: "main", transport: RecordingTransport(replies: []),
                configuration: Self.rewriting)
        }
        #expect(error == AppError(wrapped: "storageFailure"))
        #expect(try await store.load(key: "main") == nil)
    }

    @Test("replace, signOut, addScopes, completeAddingScopes and authorize all rewrite their errors")
    func everyMethodGoesThroughTheFunnel() async throws {
        let store = FaultyStore()
        let transport = RecordingTransport(replies: [.failure(.notConnectedToInternet)])
        let session = try await AuthSession.save(
            state(), to: store, key: "main", transport: transport, clock: .fixed(Fixtures.epoch),
            configuration: Self.rewriting)

        await #expect(throws: AppError(wrapped: "insecureEndpoint")) {
            try await session.authorize(URLRequest(url: Fixtures.url("http://api.example.com/")))
        }
        await #expect(throws: AppError(wrapped: "insecureEndpoint")) {
            _ = try await session.data(for: URLRequest(url: Fixtures.url("http://api.example.com/")))
        }
        await #expect(throws: AppError(wrapped: "invalidScope")) {
            _ = try await session.authorizationRequest(adding: ["bad scope"])
        }
        let request = try #require(try await session.authorizationRequest(adding: ["drive"]))
        let redirect = Fixtures.url("com.example.app:/oauth2callback?code=c&state=\(request.state)")
        let response = try AuthorizationResponse(redirect: redirect, for: request)
        await #expect(throws: AppError(wrapped: "network")) {
            try await session.completeAddingScopes(response, for: request)
        }
        await store.setFailsSaves(true)
        await #expect(throws: AppError(wrapped: "storageFailure")) {
            try await session.replace(with: state(subject: "user-1"))
        }
    }

    @Test("The default data(for:) of an Authorizer stamps through authorize")
    func authorizerProtocolOffersData() async throws {
        struct Refusing: Authorizer {
            func authorize(_ request: URLRequest) async throws -> URLRequest {
                throw BearerError.signInRequired("sign in")
            }
            var canAuthorize: Bool { false }
            var user: AuthState.User? { nil }
        }
        let authorizer: any Authorizer = Refusing()
        let error = await #expect(throws: BearerError.self) {
            _ = try await authorizer.data(for: URLRequest(url: Fixtures.url("https://api.example.com/")))
        }
        #expect(error?.kind == .signInRequired)
    }
}
