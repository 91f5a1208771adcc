import Bearer
import Foundation
import Testing

@_spi(Testing) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension DPoPEndToEndTests {
    /// The tool with a DPoP session, as a user runs it: `bearer login --dpop` against glewlwyd (nonces
    /// mandatory), then `status`, `token`, `curl` and `proof`, each request's proof checked by the
    /// independent verifier. It signs in as glewlwyd's other client, whose nonce (glewlwyd keeps one
    /// per client) the library's tests do not rotate. It is nested in the library's suite, whose
    /// tests run one at a time: glewlwyd's SQLite database answers `server_error` to sign-ins that
    /// meet.
    @Suite("the bearer tool with DPoP")
    struct Tool {
        func login(_ tool: BearerTool, port: UInt16) async throws -> ChildProcess.Result {
            try await tool.run([
                "login", "--issuer", try Glewlwyd.issuer.absoluteString, "--allow-insecure-loopback", "--client-id",
                Glewlwyd.optionalClient, "--scope", "openid email", "--port", String(port), "--dpop", "--open-with",
                try Browser.command,
            ])
        }

        @Test("login --dpop, status, token, curl and proof: proofs the verifier accepts, and no token or key printed")
        func wholeTool() async throws {
            let tool = BearerTool()
            defer { tool.cleanUp() }
            let resource = try await DPoPResource()
            let login = try await login(tool, port: 18176)
            try #require(login.status == 0, "login failed: \(login.stderr)")
            let state = try #require(try await tool.store.load(key: "default"))
            let key = try #require(state.dpopKey)
            #expect(state.accessTokenType == .dpop)
            #expect(login.stderr.contains(key.thumbprint))

            let status = try await tool.run(["status", "--json"])
            let object = try JSONDecoder().decode([String: JSONValue].self, from: status.stdout)
            #expect(object["token_type"] == "DPoP")
            #expect(object["dpop_jkt"] == .string(key.thumbprint))
            let text = try await tool.run(["status"])
            #expect(text.output.contains("Token type:    DPoP, bound to key \(key.thumbprint)"))

            let token = try await tool.run(["token"])
            #expect(token.status == 0)
            #expect(token.output == (state.accessToken?.value ?? "-") + "\n")
            #expect(token.stderr.contains("DPoP token"), "token says the token is useless without a proof")

            let curl = try await tool.run(["curl", try resource.url("/resource/items?x=1").absoluteString])
            #expect(curl.status == 0, "curl failed: \(curl.stderr)")
            let refused = try await tool.run(["curl", "-H", "DPoP: x", try resource.url().absoluteString])
            #expect(refused.status != 0)

            // bearer proof for another client: the verifier asks for its nonce, which --nonce passes on.
            let target = try resource.url("/resource/upload")
            var first = try await proofRequest(tool, method: "PUT", url: target, nonce: nil)
            let asked = try await TestServer.transport.send(first)
            #expect(asked.status == 401)
            let nonce = try #require(asked.headerFields["DPoP-Nonce"])
            first = try await proofRequest(tool, method: "PUT", url: target, nonce: nonce)
            #expect(try await TestServer.transport.send(first).status == 200)

            let log = try await resource.log()
            let accepted = log.filter { $0.status == 200 }
            #expect(accepted.count == 2, "the curl request and the proof's request")
            #expect(accepted.allSatisfy { $0.failed == nil && $0.jkt == key.thumbprint })
            #expect(!log.contains { $0.failed != nil && $0.failed != "nonce" }, "no proof failed a check")

            let secrets = [state.accessToken?.value, state.refreshToken?.value, key.privateKey.value].compactMap { $0 }
            for output in [login.stderr, status.output, text.output, token.stderr, curl.stderr] {
                #expect(!secrets.contains { output.contains($0) })
            }
        }

        /// A request carrying the two header lines `bearer proof` printed.
        func proofRequest(_ tool: BearerTool, method: String, url: URL, nonce: String?) async throws -> TransportRequest
        {
            let proof = try await tool.run(
                ["proof", "--method", method, "--url", url.absoluteString] + (nonce.map { ["--nonce", $0] } ?? []))
            try #require(proof.status == 0, "proof failed: \(proof.stderr)")
            let lines = proof.output.split(separator: "\n")
            try #require(lines.count == 2)
            #expect(lines[0].hasPrefix("Authorization: DPoP "))
            #expect(lines[1].hasPrefix("DPoP: "))
            var request = TransportRequest(method: .init(rawValue: method), url: url)
            for line in lines {
                let colon = try #require(line.firstIndex(of: ":"))
                request.headerFields[String(line[..<colon])] = String(line[line.index(colon, offsetBy: 2)...])
            }
            return request
        }

        @Test("SIGKILL after the key is made and before the first save leaves the profile's session as it was")
        func killedSignIn() async throws {
            let tool = BearerTool()
            defer { tool.cleanUp() }
            let login = try await login(tool, port: 18177)
            try #require(login.status == 0, "login failed: \(login.stderr)")
            let before = try #require(try await tool.store.load(key: "default"))
            // The second sign-in makes its key, shows the page (which never opens), and is killed there.
            let running = try tool.start([
                "login", "--issuer", try Glewlwyd.issuer.absoluteString, "--allow-insecure-loopback", "--client-id",
                Glewlwyd.optionalClient, "--scope", "openid email", "--port", "18178", "--dpop", "--no-open",
            ])
            // glewlwyd advertises PAR, so the page shown carries the pushed request's request_uri: the
            // key was made, and its thumbprint pushed as dpop_jkt, before it is shown.
            let shown = try await running.waitForStderr(containing: "request_uri=")
            #expect(shown.contains("request_uri=") && !shown.contains("code_challenge="), "the request was pushed")
            running.kill()
            _ = await running.finish()
            let after = try #require(try await tool.store.load(key: "default"))
            #expect(after == before, "the saved grant and its key are untouched")
            let token = try await tool.run(["curl", try Glewlwyd.url("/api/oidc/userinfo").absoluteString])
            #expect(token.status == 0, "the kept session still works: \(token.stderr)")
        }
    }
}
