import Bearer
import BearerTestSupport
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Finding a protected resource's metadata (RFC 9728) and its authorization server (RFC 8414, in
/// the MCP authorization profile's order), against the fake transport.
@Suite("Protected resources: discovery")
struct ResourceDiscoveryTests {
    static func mcp() throws -> ProtectedResource { try ProtectedResource(Fixtures.url(ResourceWorld.resource)) }
    static let pathInserted = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
    static let root = "https://mcp.example.com/.well-known/oauth-protected-resource"

    func discover(_ replies: [RecordingTransport.Reply], challenge: String? = nil) async throws -> (
        ProtectedResourceMetadata, [String]
    ) {
        let transport = RecordingTransport(replies: replies)
        let metadata = try await AuthorizationServerClient(transport: transport).discover(
            resource: try Self.mcp(), challenge: challenge.flatMap { BearerChallenge(header: $0) })
        return (metadata, await transport.requests.map(\.url.absoluteString))
    }

    func discoveryError(_ replies: [RecordingTransport.Reply]) async -> BearerError? {
        await #expect(throws: BearerError.self) { try await discover(replies) }
    }

    @Test("The challenge's resource_metadata is read first, and nothing else when it answers")
    func fromChallenge() async throws {
        let (metadata, urls) = try await discover(
            [.json(200, ResourceWorld.resourceDocument())],
            challenge: #"Bearer resource_metadata="https://meta.example.com/prm/mcp", scope="tools.read""#)
        #expect(urls == ["https://meta.example.com/prm/mcp"])
        #expect(try metadata.resource == Self.mcp())
        #expect(metadata.authorizationServers.map(\.absoluteString) == [ResourceWorld.issuer])
        #expect(metadata.scopesSupported == ["tools.read", "tools.write"])
    }

    @Test("Without a challenge, the path-inserted well-known URL is read, then the root one")
    func wellKnownOrder() async throws {
        let (metadata, urls) = try await discover([
            .text(404, contentType: "text/plain", "not found"), .json(200, ResourceWorld.resourceDocument()),
        ])
        #expect(urls == [Self.pathInserted, Self.root])
        #expect(metadata.authorizationServers.map(\.absoluteString) == [ResourceWorld.issuer])
    }

    @Test("A challenge's URL that is not found falls back to the well-known URLs, in order, then fails")
    func challengeThenWellKnown() async throws {
        let notFound = RecordingTransport.Reply.text(404, contentType: "text/plain", "not found")
        let transport = RecordingTransport(replies: [notFound, notFound, notFound])
        let error = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: transport).discover(
                resource: try Self.mcp(),
                challenge: BearerChallenge(header: #"Bearer resource_metadata="https://meta.example.com/prm""#))
        }
        #expect(error?.kind == .invalidDiscoveryDocument)
        #expect(
            await transport.requests.map(\.url.absoluteString) == [
                "https://meta.example.com/prm", Self.pathInserted, Self.root,
            ])
    }

    @Test("A document naming another resource is refused as resourceMismatch")
    func otherResource() async {
        for other in ["https://evil.example.com/mcp", "https://mcp.example.com/other", "https://mcp.example.com"] {
            let error = await discoveryError([
                .json(200, ResourceWorld.resourceDocument(resource: other, servers: ["https://as.evil.example"]))
            ])
            #expect(error?.kind == .resourceMismatch, "\(other)")
        }
    }

    @Test("A document naming the resource in another spelling describes it")
    func otherSpelling() async throws {
        let (metadata, _) = try await discover([
            .json(200, ResourceWorld.resourceDocument(resource: "HTTPS://MCP.EXAMPLE.COM:443/mcp/"))
        ])
        #expect(try metadata.resource == Self.mcp())
    }

    @Test("authorization_servers missing, empty, or with only http servers is invalidDiscoveryDocument")
    func noUsableServer() async {
        let documents = [
            #"{"resource":"https://mcp.example.com/mcp"}"#,
            #"{"resource":"https://mcp.example.com/mcp","authorization_servers":[]}"#,
            #"{"resource":"https://mcp.example.com/mcp","authorization_servers":"https://as.example.com"}"#,
            #"{"resource":"https://mcp.example.com/mcp","authorization_servers":["http://as.example.com",7]}"#,
            #"{"resource":"https://mcp.example.com/mcp","authorization_servers":["http://127.0.0.1:9000"]}"#,
            #"{"authorization_servers":["https://as.example.com"]}"#,
        ]
        for document in documents {
            // Both well-known URLs answer with it: the root is tried after the path-inserted one.
            let error = await discoveryError([.json(200, document), .json(200, document)])
            #expect(error?.kind == .invalidDiscoveryDocument, "\(document)")
        }
    }

    @Test("Only the https servers of a document are kept")
    func httpsServersKept() async throws {
        let (metadata, _) = try await discover([
            .json(
                200,
                ResourceWorld.resourceDocument(servers: ["http://as.example.com", "https://as2.example.com"]))
        ])
        #expect(metadata.authorizationServers.map(\.absoluteString) == ["https://as2.example.com"])
    }

    @Test("A redirect from a metadata URL to an http URL is insecureEndpoint; to https it is not followed")
    func redirects() async throws {
        let toHTTP = RecordingTransport.Reply.response(
            status: 302, headers: ["Location": "http://mcp.example.com/prm.json"], body: Data())
        let error = await discoveryError([toHTTP])
        #expect(error?.kind == .insecureEndpoint)

        let toHTTPS = RecordingTransport.Reply.response(
            status: 302, headers: ["Location": "https://elsewhere.example.com/prm.json"], body: Data())
        let (_, urls) = try await discover([toHTTPS, .json(200, ResourceWorld.resourceDocument())])
        #expect(urls == [Self.pathInserted, Self.root], "the redirect's target is never asked")
    }

    @Test(
        "A document larger than 1 MiB is invalidResponse; a body that is not a JSON object is invalidDiscoveryDocument")
    func unreadableDocuments() async {
        let padding = String(repeating: " ", count: 1 << 20)
        let oversized = RecordingTransport.Reply.json(200, padding + ResourceWorld.resourceDocument())
        #expect(await discoveryError([oversized])?.kind == .invalidResponse)
        for body in ["[]", #""https://as.example.com""#, "not json", ""] {
            let error = await discoveryError([.json(200, body), .json(200, body)])
            #expect(error?.kind == .invalidDiscoveryDocument, "\(body)")
        }
    }

    @Test("A page that is no metadata document is passed over for the root; another resource's never is")
    func passesOverNonDocuments() async throws {
        let (metadata, urls) = try await discover([
            .response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html></html>".utf8)),
            .json(200, ResourceWorld.resourceDocument()),
        ])
        #expect(urls == [Self.pathInserted, Self.root])
        #expect(try metadata.resource == Self.mcp())

        let other = ResourceWorld.resourceDocument(resource: "https://mcp.example.com/other")
        let error = await discoveryError([.json(200, other), .json(200, ResourceWorld.resourceDocument())])
        #expect(error?.kind == .resourceMismatch, "a document about another resource stops discovery")
    }

    @Test("A challenge's plain-http or relative resource_metadata is not fetched; the well-known URLs are")
    func unusableChallengeURL() async throws {
        for challenge in [
            #"Bearer resource_metadata="http://meta.example.com/prm""#, #"Bearer resource_metadata="/prm""#,
        ] {
            let (metadata, urls) = try await discover(
                [.json(200, ResourceWorld.resourceDocument())], challenge: challenge)
            #expect(urls == [Self.pathInserted], "\(challenge)")
            #expect(try metadata.resource == Self.mcp())
        }
    }

    func serverDiscovery(issuer: String, _ replies: [RecordingTransport.Reply]) async throws -> (
        Result<AuthorizationServer, BearerError>, [String]
    ) {
        let metadata = try ProtectedResourceMetadata(
            document: Data(ResourceWorld.resourceDocument(servers: [issuer]).utf8), describing: try Self.mcp())
        let transport = RecordingTransport(replies: replies)
        let result: Result<AuthorizationServer, BearerError>
        do {
            result = .success(
                try await AuthorizationServerClient(transport: transport).discoverAuthorizationServer(of: metadata))
        } catch let error as BearerError {
            result = .failure(error)
        }
        return (result, await transport.requests.map(\.url.absoluteString))
    }

    @Test("The server of an issuer with a path is looked for in the profile's three places, in order")
    func serverOrderWithPath() async throws {
        let issuer = "https://as.example.com/tenant"
        let notFound = RecordingTransport.Reply.text(404, contentType: "text/plain", "not found")
        let (failed, urls) = try await serverDiscovery(issuer: issuer, [notFound, notFound, notFound])
        #expect(
            urls == [
                "https://as.example.com/.well-known/oauth-authorization-server/tenant",
                "https://as.example.com/.well-known/openid-configuration/tenant",
                "https://as.example.com/tenant/.well-known/openid-configuration",
            ])
        #expect(throws: BearerError.self) { try failed.get() }
        let (found, tried) = try await serverDiscovery(
            issuer: issuer, [notFound, notFound, .json(200, ResourceWorld.serverDocument(issuer: issuer))])
        #expect(try found.get().issuer.absoluteString == issuer)
        #expect(try found.get().tokenEndpoint.absoluteString == issuer + "/token")
        #expect(tried.count == 3)
    }

    @Test("The server of an issuer without a path is looked for in two places; the first found is read")
    func serverOrderWithoutPath() async throws {
        let notFound = RecordingTransport.Reply.text(404, contentType: "text/plain", "not found")
        let (failed, urls) = try await serverDiscovery(issuer: ResourceWorld.issuer, [notFound, notFound])
        #expect(
            urls == [
                "https://as.example.com/.well-known/oauth-authorization-server",
                "https://as.example.com/.well-known/openid-configuration",
            ])
        #expect(throws: BearerError.self) { try failed.get() }
        let (found, tried) = try await serverDiscovery(
            issuer: ResourceWorld.issuer, [.json(200, ResourceWorld.serverDocument())])
        #expect(try found.get().registrationEndpoint?.absoluteString == ResourceWorld.register)
        #expect(try found.get().scopesSupported == ["tools.read", "tools.write"])
        #expect(tried == [ResourceWorld.serverMetadata])
    }

    @Test("A server document whose issuer differs from the one the resource names is issuerMismatch")
    func serverIssuerMismatch() async throws {
        let issuer = "https://as.example.com/tenant"
        for named in ["https://as.example.com", "https://as.example.com/tenant/", "https://as.example.com/other"] {
            let (result, _) = try await serverDiscovery(
                issuer: issuer, [.json(200, ResourceWorld.serverDocument(issuer: named))])
            #expect(throws: BearerError.self) { try result.get() }
            if case .failure(let error) = result { #expect(error.kind == .issuerMismatch, "\(named)") }
        }
    }
}
