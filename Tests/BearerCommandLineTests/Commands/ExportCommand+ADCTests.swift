import Bearer
import BearerCommandLine
import BearerTestSupport
import Foundation
import Testing

@Suite("export --format adc")
struct ExportADCTests {
    @Test("Writes gcloud's authorized_user fields, the secret and quota project only when known")
    func fields() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        var state = try CommandFixture.session()
        try await fixture.store.save(state, key: "default")
        let (status, output) = await fixture.run(["export", "--format", "adc"])
        #expect(status == 0, "\(output.stderr)")
        let fields = try JSONDecoder().decode([String: String].self, from: Data(output.stdout.utf8))
        #expect(
            fields == [
                "type": "authorized_user", "client_id": "tool", "refresh_token": "cli-refresh-token",
                "token_uri": "https://auth.example.com/token",
            ])

        state.client.secret = ClientSecret("s3cret")
        state.metadata["adc.quota_project_id"] = "billing-project"
        try await fixture.store.save(state, key: "work")
        let (_, confidential) = await fixture.run(["export", "--format", "adc", "--profile", "work"])
        let more = try JSONDecoder().decode([String: String].self, from: Data(confidential.stdout.utf8))
        #expect(more["client_secret"] == "s3cret" && more["quota_project_id"] == "billing-project")
    }

    @Test("A session without a refresh token cannot be exported as adc (exit 1)")
    func needsRefreshToken() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        var state = try CommandFixture.session()
        state.refreshToken = nil
        try await fixture.store.save(state, key: "default")
        let (status, output) = await fixture.run(["export", "--format", "adc"])
        #expect(status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("no refresh token"))
    }
}
