import Bearer
import BearerCommandLine
import BearerTestSupport
import Foundation
import Testing

@_spi(CommandLine) @_spi(Testing) @_spi(Internals) @testable import BearerCore

/// `bearer client-key FILE` and the profiles signed in with `--client-key-file`: the key file is
/// private, never replaced and never printed, and a profile's refreshes sign with it.
@Suite("client-key: a private_key_jwt client's key file")
struct ClientKeyCommandTests {
    /// The JSON object of `text`.
    private func object(_ text: String) throws -> [String: JSONValue] {
        try JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))
    }

    /// The one key of a printed JWK Set.
    private func onlyKey(of printed: String) throws -> [String: JSONValue] {
        guard case .array(let keys)? = try object(printed)["keys"], keys.count == 1, case .object(let key) = keys[0]
        else {
            Issue.record("Not a JWK Set of one key: \(printed)")
            return [:]
        }
        return key
    }

    private func mode(of path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test("A new file gets a private P-256 JWK of mode 0600; stdout is its public key set, the same each time")
    func createsThenReads() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let path = try fixture.file("unused", Data()).replacingOccurrences(of: "unused", with: "client-key.json")
        let (status, output) = await fixture.run(["client-key", path])
        #expect(status == 0, "\(output.stderr)")
        #expect(try mode(of: path) == 0o600)
        #expect(output.stderr.contains("Made a new client key"))

        let saved = try object(try String(contentsOfFile: path, encoding: .utf8))
        #expect(saved["kty"] == "EC" && saved["crv"] == "P-256")
        let scalar = try #require(saved["d"]?.stringValue)
        #expect(Base64URL.decode(scalar)?.count == 32)

        let printed = try onlyKey(of: output.stdout)
        #expect(printed["d"] == nil && !output.stdout.contains(scalar) && !output.stderr.contains(scalar))
        #expect(printed["x"] == saved["x"] && printed["y"] == saved["y"])
        #expect(printed["alg"] == "ES256" && printed["use"] == "sig")
        let x = try #require(saved["x"]?.stringValue.flatMap { Base64URL.decode($0) })
        let y = try #require(saved["y"]?.stringValue.flatMap { Base64URL.decode($0) })
        let thumbprint = try DPoPPublicKey(x: Array(x), y: Array(y)).thumbprint
        #expect(printed["kid"] == .string(thumbprint))

        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let (again, second) = await fixture.run(["client-key", path])
        #expect(again == 0, "\(second.stderr)")
        #expect(second.stdout == output.stdout, "an existing key is read, never replaced")
        #expect(second.stderr.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("A key file others can read is refused with the chmod that fixes it, and left as it is")
    func refusesOpenModes() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let path = try fixture.file("unused", Data()).replacingOccurrences(of: "unused", with: "client-key.json")
        _ = await fixture.run(["client-key", path])
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let (status, output) = await fixture.run(["client-key", path])
        #expect(status != 0)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("chmod 600"), "\(output.stderr)")
        #expect(output.stderr.contains("key compromised"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test(
        "A file that is not a private P-256 JWK is refused, never replaced, and its contents never printed",
        arguments: [
            #"{"kty":"EC","crv":"P-256","x":"AA","y":"AA","d":"AA"}"#,
            #"{"kty":"RSA","n":"AQAB","e":"AQAB"}"#,
            "not json: private-test-material",
            "",
        ])
    func refusesOtherFiles(contents: String) async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let path = try fixture.file("client-key.json", Data(contents.utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let (status, output) = await fixture.run(["client-key", path])
        #expect(status != 0)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("not a private P-256 JSON Web Key"), "\(output.stderr)")
        #expect(!output.stderr.contains("private-test-material"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == contents)
    }

    @Test("A key whose private scalar is not its public key's is refused")
    func refusesMismatchedKey() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let first = try fixture.file("a", Data()).replacingOccurrences(of: "/a", with: "/first.json")
        let second = first.replacingOccurrences(of: "first", with: "second")
        _ = await fixture.run(["client-key", first])
        _ = await fixture.run(["client-key", second])
        var mixed = try object(try String(contentsOfFile: first, encoding: .utf8))
        mixed["d"] = try object(try String(contentsOfFile: second, encoding: .utf8))["d"]
        try JSONEncoder().encode(mixed).write(to: URL(fileURLWithPath: first))
        let (status, output) = await fixture.run(["client-key", first])
        #expect(status != 0)
        #expect(output.stderr.contains("does not match its public key"), "\(output.stderr)")
    }

    @Test("login refuses a key file together with a client secret, and a missing key file, before any request")
    func loginRefusals() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let path = try fixture.file("a", Data()).replacingOccurrences(of: "/a", with: "/key.json")
        let base = ["login", "--issuer", "https://auth.example.com", "--client-id", "tool", "--scope", "email"]
        let (both, bothOutput) = await fixture.run(
            base + ["--client-key-file", path, "--client-secret", "test-secret"])
        #expect(both == 64, "\(bothOutput.stderr)")
        #expect(bothOutput.stderr.contains("not both"))
        let (missing, missingOutput) = await fixture.run(base + ["--client-key-file", path])
        #expect(missing != 0)
        #expect(missingOutput.stderr.contains("bearer client-key"), "\(missingOutput.stderr)")
        #expect(await fixture.transport.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path), "login never makes a key")
    }

    @Test("--assertion-audience takes issuer or endpoint, and endpoint only with a key file, before any request")
    func audienceOption() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let base = ["login", "--issuer", "https://auth.example.com", "--client-id", "tool", "--scope", "email"]
        let (alone, aloneOutput) = await fixture.run(base + ["--assertion-audience", "endpoint"])
        #expect(alone == 64 && aloneOutput.stderr.contains("--client-key-file"), "\(aloneOutput.stderr)")
        let path = try fixture.file("a", Data()).replacingOccurrences(of: "/a", with: "/key.json")
        _ = await fixture.run(["client-key", path])
        let (other, otherOutput) = await fixture.run(
            base + ["--client-key-file", path, "--assertion-audience", "token-endpoint"])
        #expect(other == 64 && otherOutput.stderr.contains("issuer (the default) or endpoint"), "\(otherOutput.stderr)")
        #expect(await fixture.transport.requests.isEmpty)
    }

    @Test("A profile saved with the endpoint audience refreshes with an assertion naming the token endpoint")
    func recordedAudience() async throws {
        let refreshed = RecordingTransport.Reply.json(
            200, #"{"access_token":"cli-access-2","token_type":"Bearer","expires_in":3600}"#)
        let fixture = CommandFixture(replies: [refreshed])
        defer { fixture.removeAll() }
        let path = try fixture.file("a", Data()).replacingOccurrences(of: "/a", with: "/key.json")
        _ = await fixture.run(["client-key", path])
        var state = try CommandFixture.session()
        state.client.authentication = .privateKeyJWT
        state.accessTokenExpiresAt = Date(timeIntervalSince1970: 1_800_000_010)
        state.metadata["bearer.clientKeyFile"] = path
        state.metadata["bearer.assertionAudience"] = "endpoint"
        try await fixture.store.save(state, key: "default")
        let (status, output) = await fixture.run(["token"])
        #expect(status == 0, "\(output.stderr)")
        let request = try #require(await fixture.transport.requests.first)
        let items = URLComponents(string: "?" + String(decoding: request.body ?? Data(), as: UTF8.self))?.queryItems
        let assertion = try #require(items?.first { $0.name == "client_assertion" }?.value)
        let payload = try #require(assertion.split(separator: ".").dropFirst().first.flatMap { Base64URL.decode($0) })
        let claims = try object(String(decoding: payload, as: UTF8.self))
        #expect(claims["aud"] == .string(state.server.tokenEndpoint.absoluteString))
    }

    @Test("A profile signed in with a key file refreshes with an assertion signed by that key")
    func refreshSignsWithTheFile() async throws {
        let refreshed = RecordingTransport.Reply.json(
            200, #"{"access_token":"cli-access-2","token_type":"Bearer","expires_in":3600}"#)
        let fixture = CommandFixture(replies: [refreshed])
        defer { fixture.removeAll() }
        let path = try fixture.file("a", Data()).replacingOccurrences(of: "/a", with: "/key.json")
        let (_, made) = await fixture.run(["client-key", path])
        var state = try CommandFixture.session()
        state.client.authentication = .privateKeyJWT
        state.accessTokenExpiresAt = Date(timeIntervalSince1970: 1_800_000_010)
        state.metadata["bearer.clientKeyFile"] = path
        try await fixture.store.save(state, key: "default")

        let (status, output) = await fixture.run(["token"])
        #expect(status == 0, "\(output.stderr)")
        #expect(output.stdout == "cli-access-2\n")
        let request = try #require(await fixture.transport.requests.first)
        let items = URLComponents(string: "?" + String(decoding: request.body ?? Data(), as: UTF8.self))?.queryItems
        let form = Dictionary((items ?? []).map { ($0.name, $0.value ?? "") }) { _, last in last }
        #expect(form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        let parts = try #require(form["client_assertion"]).split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let published = try JSONWebKeySet(json: Data(made.stdout.utf8))
        let encodedHeader = try #require(Base64URL.decode(parts[0]))
        let header = try object(String(decoding: encodedHeader, as: UTF8.self))
        let candidates = published.candidates(for: .es256, keyID: header["kid"]?.stringValue)
        let key = try #require(candidates.first)
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(
            try PlatformSignatureVerifier().isValidSignature(
                Array(signature), of: Array("\(parts[0]).\(parts[1])".utf8), by: .es256, with: key))
    }

    @Test("A profile whose key file is gone keeps its session and says how to get the key back")
    func missingFileKeepsSession() async throws {
        let fixture = CommandFixture(replies: [])
        defer { fixture.removeAll() }
        var state = try CommandFixture.session()
        state.client.authentication = .privateKeyJWT
        state.accessTokenExpiresAt = Date(timeIntervalSince1970: 1_800_000_010)
        state.metadata["bearer.clientKeyFile"] = fixture.folder.appendingPathComponent("gone.json").path
        try await fixture.store.save(state, key: "default")
        let (status, output) = await fixture.run(["token"])
        #expect(status != 0)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("gone.json"), "\(output.stderr)")
        #expect(await fixture.transport.requests.isEmpty)
        #expect(try await fixture.store.load(key: "default") == state)
    }
}
