import Bearer
import BearerTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app's code, as it would take any authorizer: the thing an app tests with ``FakeAuthorizer``.
private struct ProfileLoader<Source: Authorizer> {
    let authorizer: Source

    func load() async throws -> String {
        let url = Fixtures.url("https://api.example.com/me")
        let (data, response) = try await authorizer.data(for: URLRequest(url: url))
        guard response.statusCode == 200 else { return "status \(response.statusCode)" }
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite("BearerTesting's fake authorizer")
struct FakeAuthorizerTests {
    @Test("Stamps the chosen token, records each request, and follows setToken as a refresh would")
    func stampsAndRecords() async throws {
        let authorizer = FakeAuthorizer(token: "first", user: AuthState.User(subject: "u-1", givenName: "Ada"))
        let request = URLRequest(url: Fixtures.url("https://api.example.com/files"))
        let first = try await authorizer.authorize(request)
        #expect(first.value(forHTTPHeaderField: "Authorization") == "Bearer first")
        await authorizer.setToken("second")
        let second = try await authorizer.authorize(request)
        #expect(second.value(forHTTPHeaderField: "Authorization") == "Bearer second")
        #expect(await authorizer.authorizedRequests.map(\.url) == [request.url, request.url])
        #expect(await authorizer.user?.givenName == "Ada")
        #expect(await authorizer.canAuthorize)
    }

    @Test("Fails as told, and refuses plain http to anything but a loopback address")
    func failsAndRefusesClearText() async throws {
        let authorizer = FakeAuthorizer()
        let clear = await #expect(throws: BearerError.self) {
            try await authorizer.authorize(URLRequest(url: Fixtures.url("http://api.example.com/files")))
        }
        #expect(clear?.kind == .insecureEndpoint)
        let local = try await authorizer.authorize(URLRequest(url: Fixtures.url("http://127.0.0.1:8080/files")))
        #expect(local.value(forHTTPHeaderField: "Authorization") == "Bearer test-access-token")
        await authorizer.fail(with: BearerError.signInRequired("sign in again"))
        #expect(await !authorizer.canAuthorize)
        let failed = await #expect(throws: BearerError.self) {
            try await authorizer.authorize(URLRequest(url: Fixtures.url("https://api.example.com/files")))
        }
        #expect(failed?.kind == .signInRequired)
    }

    @Test("An app's code runs against the fake and a recording transport, with no server")
    func drivesAppCode() async throws {
        let transport = RecordingTransport(replies: [.json(200, #"{"name":"Ada"}"#), .json(404, "{}")])
        let loader = ProfileLoader(authorizer: FakeAuthorizer(token: "t", transport: transport))
        #expect(try await loader.load() == #"{"name":"Ada"}"#)
        #expect(try await loader.load() == "status 404")
        let sent = await transport.requests
        #expect(sent.map(\.headerFields["Authorization"]) == ["Bearer t", "Bearer t"])
    }

    @Test("A rejected token is retried once only when the fake's token changed meanwhile")
    func retriesOnlyWithAnotherToken() async throws {
        let rejected = RecordingTransport.Reply.response(
            status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#], body: Data())
        let transport = RecordingTransport(replies: [rejected])
        let authorizer = FakeAuthorizer(token: "same", transport: transport)
        let (_, response) = try await authorizer.data(for: URLRequest(url: Fixtures.url("https://api.example.com/a")))
        #expect(response.statusCode == 401)
        #expect(await transport.requests.count == 1, "the same token is not sent twice")
    }
}
