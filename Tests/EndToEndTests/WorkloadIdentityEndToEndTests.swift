import Bearer
import Foundation
import Testing

@_spi(Testing) @testable import BearerCore

/// Google's `external_account` credentials through the tool, against Server/google_sts.py: a
/// stand-in for Google's STS and IAM Credentials, which cannot be reached here, implementing
/// their documented requests and answers (Server/README.md says what it cannot show).
@Suite("End to end: workload identity through the tool, against a local Google STS", .serialized)
final class WorkloadIdentityEndToEndTests {
    static let audience = "//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/ci/providers/gh"
    static let serviceAccount = "ci@example-project.iam.gserviceaccount.com"
    static let issuer = "https://ci.example"

    let root: URL
    let key: any DPoPKey
    let sts: ServerScript
    let tool = BearerTool()

    init() async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("workload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        key = try await PlatformDPoPKeys().makeKey()
        let publicKey = key.record.publicKey
        let jwks: [String: JSONValue] = [
            "keys": .array([
                .object([
                    "kty": "EC", "crv": "P-256", "kid": "ci-key", "alg": "ES256",
                    "x": .string(Base64URL.encode(publicKey.x)), "y": .string(Base64URL.encode(publicKey.y)),
                ])
            ])
        ]
        let jwksFile = root.appendingPathComponent("jwks.json")
        try JSONEncoder().encode(jwks).write(to: jwksFile)
        sts = try await ServerScript(
            "google_sts.py", python: URL(fileURLWithPath: "/usr/bin/python3"),
            arguments: [
                "--trust-jwks-file", jwksFile.path, "--subject-issuer", Self.issuer, "--audience", Self.audience,
                "--service-account", Self.serviceAccount,
            ])
    }

    deinit {
        sts.stop()
        tool.cleanUp()
        try? FileManager.default.removeItem(at: root)
    }

    /// A platform token for `subject`, signed by the key the STS trusts, as a CI's OIDC token is.
    func platformToken(subject: String) async throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let header = Base64URL.encode(try encoder.encode(["alg": "ES256", "kid": "ci-key", "typ": "JWT"]))
        let claims: [String: JSONValue] = [
            "iss": .string(Self.issuer), "sub": .string(subject), "aud": .string(Self.audience),
            "iat": .number(Double(now)), "exp": .number(Double(now + 600)),
        ]
        let input = header + "." + Base64URL.encode(try encoder.encode(claims))
        return input + "." + Base64URL.encode(try await key.signature(for: Array(input.utf8)))
    }

    func credentials(tokenFile: URL) -> Data {
        let base = sts.base.absoluteString
        let file: [String: JSONValue] = [
            "type": "external_account", "audience": .string(Self.audience),
            "subject_token_type": "urn:ietf:params:oauth:token-type:jwt",
            "token_url": .string(base + "/v1/token"),
            "service_account_impersonation_url": .string(
                base + "/v1/projects/-/serviceAccounts/\(Self.serviceAccount):generateAccessToken"),
            "credential_source": .object(["file": .string(tokenFile.path)]),
        ]
        return (try? JSONEncoder().encode(file)) ?? Data()
    }

    @Test("migrate --from adc imports external_account credentials; token serves the service account's token")
    func externalAccountThroughTheTool() async throws {
        let tokenFile = root.appendingPathComponent("platform-token")
        try Data(try await platformToken(subject: "repo:example/app:ref:refs/heads/main").utf8).write(to: tokenFile)
        let credentialsFile = root.appendingPathComponent("credentials.json")
        try credentials(tokenFile: tokenFile).write(to: credentialsFile)

        let imported = try await tool.run([
            "migrate", "--from", "adc", credentialsFile.path, "--profile", "gcp", "--allow-insecure-loopback",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let token = try await tool.run(["token", "--profile", "gcp"])
        #expect(token.status == 0, "\(token.stderr)")
        let value = String(decoding: token.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        var request = TransportRequest(url: try #require(URL(string: sts.base.absoluteString + "/v1/whoami")))
        request.headerFields["Authorization"] = "Bearer " + value
        let whoami = try await TestServer.transport.send(request)
        #expect(whoami.status == 200)
        let principal = try JSONDecoder().decode([String: JSONValue].self, from: whoami.body)
        #expect(
            principal.values.contains { $0.stringValue == Self.serviceAccount },
            "the token is the impersonated service account's")
        for output in [String(decoding: imported.stdout, as: UTF8.self), imported.stderr, token.stderr] {
            #expect(!output.contains(value))
        }
        let stored = try #require(try await tool.store.load(key: "gcp"))
        #expect(stored.derivation?.workloadToken?.path == tokenFile.path)
        #expect(!String(decoding: try JSONEncoder().encode(stored), as: UTF8.self).contains("eyJ"), "no JWT is kept")

        // A second token is served from the saved session: nothing more is exchanged.
        #expect(try await tool.run(["token", "--profile", "gcp"]).status == 0)
        struct Log: Decodable { var requests: [[String: JSONValue]] }
        let (data, _) = try await TestServer.transport.send(
            URLRequest(url: try #require(URL(string: sts.base.absoluteString + "/_harness/log"))))
        let log = try JSONDecoder().decode(Log.self, from: data).requests
        #expect(log.filter { $0["path"]?.stringValue == "/v1/token" }.count == 1)
    }

    @Test("A platform token the STS does not trust is refused, and the profile gets no session")
    func untrustedToken() async throws {
        let tokenFile = root.appendingPathComponent("forged-token")
        let forged = try await platformToken(subject: "someone")
        try Data((forged.dropLast(4) + "AAAA").utf8).write(to: tokenFile)
        let credentialsFile = root.appendingPathComponent("credentials.json")
        try credentials(tokenFile: tokenFile).write(to: credentialsFile)
        let imported = try await tool.run([
            "migrate", "--from", "adc", credentialsFile.path, "--profile", "gcp", "--allow-insecure-loopback",
        ])
        #expect(imported.status != 0)
        #expect(imported.stderr.contains("invalid_grant"), "\(imported.stderr)")
        #expect(try await tool.store.load(key: "gcp") == nil)
    }
}
