import Bearer
import BearerTestSupport
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which client a resource sign-in uses (configured, a Client ID Metadata Document, or a kept or
/// new registration) and which scopes it asks for.
@Suite("Protected resources: the client and the scopes")
struct ResourceClientChoiceTests {
    static let otherRedirect = "http://127.0.0.1:40000/callback"

    @Test("A second sign-in with the same redirect URI reuses the kept registration")
    func registrationKept() async throws {
        let store = InMemorySessionStore()
        let transport = await ResourceWorld.transport()
        _ = try await ResourceWorld.signIn(transport, store: store)
        let second = RedirectingAgent()
        _ = try await ResourceWorld.signIn(transport, store: store, agent: second)
        #expect(await transport.requests(to: ResourceWorld.register).count == 1)
        #expect(second.presented.first?.client.id == "dyn-1")
        #expect(
            await transport.requests(to: ResourceWorld.token).map { $0.formBody["client_id"] } == ["dyn-1", "dyn-1"])
    }

    @Test("A sign-in with another redirect URI registers again, and keeps the new client")
    func otherRedirectRegistersAgain() async throws {
        let store = InMemorySessionStore()
        let transport = await ResourceWorld.transport()
        _ = try await ResourceWorld.signIn(transport, store: store)
        await transport.route(
            ResourceWorld.register,
            .json(201, #"{"client_id":"dyn-2","redirect_uris":["\#(Self.otherRedirect)"]}"#))
        let other = RedirectingAgent(redirectURI: Self.otherRedirect)
        _ = try await ResourceWorld.signIn(transport, store: store, agent: other)
        let registrations = await transport.requests(to: ResourceWorld.register)
        #expect(registrations.count == 2)
        #expect(try ResourceWorld.jsonBody(registrations[1])["redirect_uris"] == [.string(Self.otherRedirect)])
        #expect(other.presented.first?.client.id == "dyn-2")

        _ = try await ResourceWorld.signIn(
            transport, store: store, agent: RedirectingAgent(redirectURI: Self.otherRedirect))
        #expect(await transport.requests(to: ResourceWorld.register).count == 2, "the new registration was kept")
    }

    @Test("A kept registration whose secret has expired, or expires within a minute, is replaced")
    func expiredSecretRegistersAgain() async throws {
        let store = InMemorySessionStore()
        let expiry = Fixtures.epoch.addingTimeInterval(3600)
        let transport = await ResourceWorld.transport(
            registration: ResourceWorld.registered(
                extra: #","client_secret":"s1","client_secret_expires_at":\#(Int(expiry.timeIntervalSince1970))"#))
        _ = try await ResourceWorld.signIn(transport, store: store)
        _ = try await ResourceWorld.signIn(transport, store: store, at: expiry.addingTimeInterval(-600))
        #expect(await transport.requests(to: ResourceWorld.register).count == 1, "the secret still holds")

        await transport.route(
            ResourceWorld.register, ResourceWorld.registered("dyn-2", extra: #","client_secret":"s2""#))
        let agent = RedirectingAgent()
        _ = try await ResourceWorld.signIn(transport, store: store, agent: agent, at: expiry.addingTimeInterval(-30))
        #expect(await transport.requests(to: ResourceWorld.register).count == 2)
        #expect(agent.presented.first?.client.id == "dyn-2")
        let basic = "Basic " + Data("dyn-2:s2".utf8).base64EncodedString()
        #expect(await transport.requests(to: ResourceWorld.token).last?.headerFields["Authorization"] == basic)

        _ = try await ResourceWorld.signIn(transport, store: store, at: expiry.addingTimeInterval(86_400))
        #expect(await transport.requests(to: ResourceWorld.register).count == 2, "the new secret does not expire")
    }

    @Test("A client configured for the server is used as it is, with no registration")
    func configuredClient() async throws {
        let store = InMemorySessionStore()
        let transport = await ResourceWorld.transport()
        let identity = ClientIdentity(
            name: "Example Agent", clients: [Fixtures.url(ResourceWorld.issuer): Client(id: "preset")])
        let agent = RedirectingAgent()
        let session = try await ResourceWorld.signIn(transport, store: store, agent: agent, identity: identity)
        #expect(await transport.requests(to: ResourceWorld.register).isEmpty)
        #expect(agent.presented.first?.client.id == "preset")
        #expect(agent.presented.first?.redirectURI.absoluteString == ResourceWorld.redirectURI)
        #expect(await transport.requests(to: ResourceWorld.token).first?.formBody["client_id"] == "preset")
        #expect(try await store.keys() == [session.key], "no registration record")
    }

    @Test("A client configured for another server is not used there")
    func configuredClientOtherServer() async throws {
        let transport = await ResourceWorld.transport()
        let identity = ClientIdentity(
            name: "Example Agent", clients: [Fixtures.url("https://other-as.example.com"): Client(id: "preset")])
        let agent = RedirectingAgent()
        _ = try await ResourceWorld.signIn(transport, store: InMemorySessionStore(), agent: agent, identity: identity)
        #expect(await transport.requests(to: ResourceWorld.register).count == 1)
        #expect(agent.presented.first?.client.id == "dyn-1")
    }

    @Test("The Client ID Metadata Document URL is the client_id where the server says it reads them, and only there")
    func metadataDocument() async throws {
        let document = "https://agent.example.com/oauth/client.json"
        let identity = ClientIdentity(name: "Example Agent", metadataDocument: Fixtures.url(document))
        let reading = await ResourceWorld.transport(
            serverDocument: ResourceWorld.serverDocument(metadataDocuments: true))
        let agent = RedirectingAgent()
        _ = try await ResourceWorld.signIn(reading, store: InMemorySessionStore(), agent: agent, identity: identity)
        #expect(agent.presented.first?.client.id == document)
        #expect(await reading.requests(to: ResourceWorld.register).isEmpty)
        #expect(await reading.requests(to: ResourceWorld.token).first?.formBody["client_id"] == document)

        for flag: Bool? in [nil, false] {
            let transport = await ResourceWorld.transport(
                serverDocument: ResourceWorld.serverDocument(metadataDocuments: flag))
            let registering = RedirectingAgent()
            _ = try await ResourceWorld.signIn(
                transport, store: InMemorySessionStore(), agent: registering, identity: identity)
            #expect(registering.presented.first?.client.id == "dyn-1", "\(String(describing: flag))")
            #expect(await transport.requests(to: ResourceWorld.register).count == 1, "\(String(describing: flag))")
        }
    }

    /// The scopes the sign-in asks for, with the resource's probe answered by `probe` and the
    /// server listing `serverScopes`.
    func askedScopes(
        probe: RecordingTransport.Reply = ResourceWorld.unauthorized(),
        resourceScopes: [String]? = ["tools.read", "tools.write"],
        serverScopes: [String]? = ["tools.read", "tools.write"]
    ) async throws -> [String] {
        let transport = await ResourceWorld.transport(
            probe: probe, resourceDocument: ResourceWorld.resourceDocument(scopes: resourceScopes),
            serverDocument: ResourceWorld.serverDocument(scopes: serverScopes))
        let agent = RedirectingAgent()
        _ = try await ResourceWorld.signIn(transport, store: InMemorySessionStore(), agent: agent)
        return try #require(agent.presented.first).scopes
    }

    @Test("The challenge's scope is asked for; without one, the resource's scopes_supported")
    func scopesFromChallengeOrResource() async throws {
        #expect(try await askedScopes(probe: ResourceWorld.unauthorized(scope: "tools.write")) == ["tools.write"])
        #expect(try await askedScopes(probe: ResourceWorld.unauthorized(scope: nil)) == ["tools.read", "tools.write"])
        #expect(try await askedScopes(probe: .json(200, "{}")) == ["tools.read", "tools.write"], "no challenge at all")
        #expect(try await askedScopes(probe: ResourceWorld.unauthorized(scope: nil), resourceScopes: nil) == [])
    }

    @Test("offline_access is added where the server lists it, and removed where it does not")
    func offlineAccess() async throws {
        let listing = ["tools.read", "tools.write", "offline_access"]
        #expect(try await askedScopes(serverScopes: listing) == ["tools.read", "offline_access"])
        #expect(
            try await askedScopes(probe: ResourceWorld.unauthorized(scope: nil), serverScopes: listing) == [
                "tools.read", "tools.write", "offline_access",
            ])
        #expect(
            try await askedScopes(probe: ResourceWorld.unauthorized(scope: "offline_access tools.read")) == [
                "tools.read"
            ])
        #expect(
            try await askedScopes(
                probe: ResourceWorld.unauthorized(scope: nil), resourceScopes: ["offline_access"], serverScopes: nil)
                == [])
    }
}
