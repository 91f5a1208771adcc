import Bearer
import BearerTestSupport
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A protected resource's canonical URI, which requests it covers, and where its metadata is.
@Suite("Protected resources: canonical URIs")
struct ProtectedResourceTests {
    func resource(_ text: String, allowingInsecureLoopback: Bool = false) throws -> ProtectedResource {
        try ProtectedResource(Fixtures.url(text), allowingInsecureLoopback: allowingInsecureLoopback)
    }

    @Test("The canonical URI has a lowercase scheme and host, no default port and no trailing slash")
    func canonicalForm() throws {
        let spellings = [
            "https://mcp.example.com/mcp", "HTTPS://MCP.Example.COM/mcp", "https://mcp.example.com:443/mcp",
            "https://mcp.example.com/mcp/", "https://Mcp.Example.com:443/mcp//",
        ]
        for spelling in spellings {
            let named = try resource(spelling)
            #expect(named.identifier.absoluteString == "https://mcp.example.com/mcp", "\(spelling)")
            #expect(named.description == "https://mcp.example.com/mcp")
        }
        #expect(try resource("https://mcp.example.com:8443/mcp").description == "https://mcp.example.com:8443/mcp")
        #expect(try resource("https://mcp.example.com/").description == "https://mcp.example.com")
        #expect(try resource("https://mcp.example.com/MCP").description == "https://mcp.example.com/MCP")
        #expect(try resource("https://mcp.example.com/mcp/") == resource("HTTPS://MCP.EXAMPLE.COM:443/mcp"))
    }

    @Test("A fragment or user information cannot name a resource")
    func fragmentAndUserInfoRefused() {
        for text in [
            "https://mcp.example.com/mcp#tools", "https://user@mcp.example.com/mcp",
            "https://user:secret@mcp.example.com/mcp",
        ] {
            let error = #expect(throws: BearerError.self, "\(text)") { try resource(text) }
            #expect(error?.kind == .invalidConfiguration, "\(text)")
        }
    }

    @Test("http is refused, but for a loopback address when insecure loopback is allowed")
    func httpRefusedUnlessLoopbackAllowed() throws {
        for (text, allowing) in [
            ("http://mcp.example.com/mcp", false), ("http://mcp.example.com/mcp", true),
            ("http://127.0.0.1:8080/mcp", false), ("http://localhost:8080/mcp", false),
        ] {
            let error = #expect(throws: BearerError.self, "\(text)") {
                try resource(text, allowingInsecureLoopback: allowing)
            }
            #expect(error?.kind == .insecureEndpoint, "\(text)")
        }
        let local = try resource("http://127.0.0.1:8080/mcp/", allowingInsecureLoopback: true)
        #expect(local.description == "http://127.0.0.1:8080/mcp")
        #expect(
            try resource("http://127.0.0.1:80/mcp", allowingInsecureLoopback: true).description
                == "http://127.0.0.1/mcp")
    }

    @Test("A resource covers its own path and the paths below it, at the same scheme, host and port only")
    func covers() throws {
        let mcp = try resource("https://mcp.example.com/mcp")
        for covered in [
            "https://mcp.example.com/mcp", "https://mcp.example.com/mcp/", "https://MCP.example.com:443/mcp",
            "https://mcp.example.com/mcp/tools", "https://mcp.example.com/mcp/tools/call?name=x",
            "https://mcp.example.com/mcp?session=1",
        ] {
            #expect(mcp.covers(Fixtures.url(covered)), "\(covered)")
        }
        for outside in [
            "https://mcp.example.com/mcpx", "https://mcp.example.com/mcpx/tools", "https://mcp.example.com/admin",
            "https://mcp.example.com/", "https://mcp.example.com:8443/mcp", "https://other.example.com/mcp",
            "https://evil.mcp.example.com/mcp", "http://mcp.example.com/mcp", "https://mcp.example.com/MCP",
            "https://mcp.example.com/mcp#tools", "https://mcp.example.com/mcp/../admin",
            "https://mcp.example.com/mcp/%2e%2e/admin", "https://mcp.example.com/mcp/%2E%2e/admin",
            "https://mcp.example.com/mcp/./tools", "https://mcp.example.com/mcp/.%2e/admin",
        ] {
            #expect(!mcp.covers(Fixtures.url(outside)), "\(outside)")
        }
    }

    @Test("A resource without a path covers every path of its origin, and no other origin")
    func pathlessCovers() throws {
        let root = try resource("https://mcp.example.com")
        #expect(root.covers(Fixtures.url("https://mcp.example.com")))
        #expect(root.covers(Fixtures.url("https://mcp.example.com/anything/below")))
        #expect(!root.covers(Fixtures.url("https://mcp.example.com:444/anything")))
        #expect(!root.covers(Fixtures.url("https://mcp.example.com.evil.example/anything")))
    }

    @Test("Metadata is looked for with the path inserted first, then at the root; once for a resource without a path")
    func metadataURLs() throws {
        #expect(
            try resource("https://mcp.example.com/api/mcp/").metadataURLs.map(\.absoluteString) == [
                "https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp",
                "https://mcp.example.com/.well-known/oauth-protected-resource",
            ])
        #expect(
            try resource("https://mcp.example.com:8443/mcp").metadataURLs.map(\.absoluteString) == [
                "https://mcp.example.com:8443/.well-known/oauth-protected-resource/mcp",
                "https://mcp.example.com:8443/.well-known/oauth-protected-resource",
            ])
        #expect(
            try resource("https://mcp.example.com/").metadataURLs.map(\.absoluteString) == [
                "https://mcp.example.com/.well-known/oauth-protected-resource"
            ])
    }

    @Test("A resource encodes as its canonical URI and decodes back equal, from any spelling")
    func codableRoundTrip() throws {
        let mcp = try resource("https://mcp.example.com:8443/mcp")
        let encoded = try JSONEncoder().encode([mcp])
        #expect(try JSONDecoder().decode([String].self, from: encoded) == ["https://mcp.example.com:8443/mcp"])
        let decoded = try JSONDecoder().decode([ProtectedResource].self, from: encoded)
        #expect(decoded == [mcp])
        #expect(decoded.first?.covers(Fixtures.url("https://mcp.example.com:8443/mcp/tools")) == true)
        let respelled = try JSONDecoder().decode(
            [ProtectedResource].self, from: Data(#"["HTTPS://MCP.EXAMPLE.COM:8443/mcp/"]"#.utf8))
        #expect(respelled == [mcp])
        for bad in [#"["no scheme or host"]"#, #"["https://mcp.example.com/mcp#x"]"#, "[42]"] {
            #expect(throws: DecodingError.self, "\(bad)") {
                try JSONDecoder().decode([ProtectedResource].self, from: Data(bad.utf8))
            }
        }
    }
}
