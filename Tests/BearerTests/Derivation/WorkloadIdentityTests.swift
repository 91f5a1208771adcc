import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Internals) @_spi(Migration) @testable import BearerCore

@Suite("Workload identity: a platform token from a file, exchanged, and Google's external_account")
struct WorkloadIdentityTests {
    static func tokenFile(_ contents: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("workload-\(UUID().uuidString)").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func credentials(tokenFile: String, impersonation: Bool, json: Bool = false) -> Data {
        let format = json ? #","format":{"type":"json","subject_token_field_name":"id_token"}"# : ""
        let impersonate =
            impersonation
            ? #""service_account_impersonation_url":"https://iam.example.com/v1/projects/-/serviceAccounts/ci@p.iam.gserviceaccount.com:generateAccessToken","service_account_impersonation":{"token_lifetime_seconds":1200},"#
            : ""
        return Data(
            #"{"type":"external_account","audience":"//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/ci/providers/gh",\#(impersonate)"subject_token_type":"urn:ietf:params:oauth:token-type:jwt","token_url":"https://sts.example.com/v1/token","credential_source":{"file":"\#(tokenFile)"\#(format)}}"#
                .utf8)
    }

    @Test(
        "The file's token is exchanged at the STS, then the service account's token asked for, and read again when stale"
    )
    func externalAccountWithImpersonation() async throws {
        let platform = TestTokens.random("platform")
        let path = try Self.tokenFile(platform + "\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let account = try GoogleExternalAccount(json: Self.credentials(tokenFile: path, impersonation: true))
        #expect(account.client.id.isEmpty)
        let federated = TestTokens.random("federated")
        let impersonated = TestTokens.random("impersonated")
        let transport = RecordingTransport(replies: [
            .json(
                200,
                #"{"access_token":"\#(federated)","issued_token_type":"urn:ietf:params:oauth:token-type:access_token","token_type":"Bearer","expires_in":3600}"#
            ),
            .json(200, #"{"accessToken":"\#(impersonated)","expireTime":"2027-01-15T08:20:00.123456789Z"}"#),
        ])
        let session = try await AuthSession.derive(
            account.derivation, at: account.server, as: account.client, store: InMemorySessionStore(), key: "gcp",
            transport: transport, clock: .fixed(DerivedSessionTests.now))
        let requests = await transport.requests
        #expect(requests.count == 2)
        let exchange = requests[0].formBody
        #expect(requests[0].url.absoluteString == "https://sts.example.com/v1/token")
        #expect(exchange["subject_token"] == platform, "the token without its newline")
        #expect(exchange["subject_token_type"] == "urn:ietf:params:oauth:token-type:jwt")
        #expect(exchange["audience"]?.hasPrefix("//iam.googleapis.com/") == true)
        #expect(exchange["scope"] == "https://www.googleapis.com/auth/cloud-platform")
        #expect(exchange["client_id"] == nil, "Google's STS takes no client authentication")
        #expect(requests[0].headerFields["Authorization"] == nil)
        #expect(requests[1].headerFields["Authorization"] == "Bearer " + federated)
        let body = try JSONDecoder().decode([String: JSONValue].self, from: requests[1].body ?? Data())
        #expect(body["lifetime"] == .string("1200s"))
        let state = await session.state
        #expect(state.accessToken?.value == impersonated)
        #expect(state.accessTokenExpiresAt == RFC3339Time.date(from: "2027-01-15T08:20:00.123456789Z"))
        #expect(session.key == "gcp")

        // The platform rotated its token; the stale session reads the new one.
        let rotated = TestTokens.random("rotated")
        try Data(rotated.utf8).write(to: URL(fileURLWithPath: path))
        await transport.enqueue(
            .json(
                200,
                #"{"access_token":"\#(TestTokens.random("f2"))","issued_token_type":"urn:ietf:params:oauth:token-type:access_token","token_type":"Bearer","expires_in":3600}"#
            ))
        await transport.enqueue(.json(200, #"{"accessToken":"\#(impersonated)2","expireTime":"2027-01-15T10:00:00Z"}"#))
        let later = try #require(
            try await AuthSession.restore(
                key: "gcp", from: try await InMemorySessionStore.copying(state, key: "gcp"), transport: transport,
                clock: .fixed(Date(timeIntervalSince1970: 1_800_000_000 + 86_400 * 60))))
        #expect(try await later.validAccessToken().value == impersonated + "2")
        #expect(await transport.requests[2].formBody["subject_token"] == rotated)
    }

    @Test("A JSON token file is read by its field; missing, empty and oversized files are clear errors")
    func tokenFiles() throws {
        let json = try Self.tokenFile(#"{"id_token":"abc.def.ghi"}"#)
        defer { try? FileManager.default.removeItem(atPath: json) }
        #expect(try WorkloadTokenSource.file(json, jsonField: "id_token").read().value == "abc.def.ghi")
        for source in [
            WorkloadTokenSource.file("/nonexistent/token"), .file(json, jsonField: "other"),
            .file(try Self.tokenFile("   \n")), .file(try Self.tokenFile(String(repeating: "a", count: 70_000))),
        ] {
            let error = #expect(throws: BearerError.self) { _ = try source.read() }
            #expect(error?.kind == .invalidConfiguration)
        }
    }

    @Test(
        "external_account files Bearer cannot follow are refused, naming the field",
        arguments: [
            #"{"type":"authorized_user"}"#,
            #"{"type":"external_account","token_url":"https://sts.example.com/v1/token","credential_source":{"file":"/t"}}"#,
            #"{"type":"external_account","audience":"a","token_url":"http://sts.example.com/v1/token","credential_source":{"file":"/t"}}"#,
            #"{"type":"external_account","audience":"a","token_url":"https://sts.example.com/v1/token","credential_source":{"url":"http://169.254.169.254/token"}}"#,
            #"{"type":"external_account","audience":"a","token_url":"https://sts.example.com/v1/token","workforce_pool_user_project":"p","credential_source":{"file":"/t"}}"#,
            #"{"type":"external_account","audience":"a","token_url":"https://sts.example.com/v1/token","credential_source":{"file":"/t","format":{"type":"json"}}}"#,
            "not json",
        ])
    func refusedFiles(json: String) {
        let error = #expect(throws: BearerError.self) { _ = try GoogleExternalAccount(json: Data(json.utf8)) }
        #expect(error != nil)
    }

    @Test("RFC 3339 UTC times as Google writes them, and nothing else")
    func rfc3339() {
        #expect(RFC3339Time.date(from: "1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(RFC3339Time.date(from: "2027-01-15T08:00:00Z") == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(RFC3339Time.date(from: "2000-02-29T12:30:15.5Z")?.timeIntervalSince1970 == 951_827_415.5)
        for bad in [
            "2027-01-15T08:00:00", "2027-13-01T00:00:00Z", "2027-01-15 08:00:00Z", "x", "2027-01-15T08:00:00.Z",
        ] {
            #expect(RFC3339Time.date(from: bad) == nil, "\(bad)")
        }
    }
}

extension InMemorySessionStore {
    /// A store holding `state` under `key`.
    static func copying(_ state: AuthState, key: String) async throws -> InMemorySessionStore {
        let store = InMemorySessionStore()
        try await store.save(state, key: key)
        return store
    }
}
