import Bearer
import BearerCommandLine
import BearerTestSupport
import Foundation
import Testing

@_spi(CommandLine) @_spi(Migration) @testable import BearerCore

/// A private config folder, a fake network and a fixed clock for running commands.
struct CommandFixture {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-cmd-\(UUID().uuidString)")
    let transport: RecordingTransport

    init(replies: [RecordingTransport.Reply] = []) {
        transport = RecordingTransport(replies: replies)
    }

    /// Runs `bearer arguments…` and returns its exit code and what it wrote; with `sections`, the
    /// refreshes' critical sections and the requests are recorded there.
    func run(
        _ arguments: [String],
        variables: [String: String] = [:],
        sections: CriticalSectionRecorder? = nil
    ) async -> (status: Int32, output: Capture) {
        let capture = Capture()
        var environment = CommandEnvironment(
            variables: variables.merging(["BEARER_CONFIG_DIR": folder.path]) { _, fixed in fixed },
            console: capture.console,
            transport: sections?.recording(transport) ?? transport,
            clock: .fixed(Date(timeIntervalSince1970: 1_800_000_000)),
            // No account rule file of the machine's picks an account in these tests.
            workingDirectory: nil
        )
        environment.refreshCriticalSection = sections
        return (await BearerCommandLine.run(arguments, environment: environment), capture)
    }

    var store: FileSessionStore { FileSessionStore(directory: folder) }

    /// Writes `contents` to a new file in a scratch folder next to the config folder.
    func file(_ name: String, _ contents: Data) throws -> String {
        let scratch = folder.appendingPathExtension("files")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let url = scratch.appendingPathComponent(name)
        try contents.write(to: url)
        return url.path
    }

    func removeAll() {
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.removeItem(at: folder.appendingPathExtension("files"))
    }

    /// A session on a server that is not Google's, with a token valid for an hour.
    static func session(
        issuer: String = "https://auth.example.com",
        revocation: String? = "https://auth.example.com/revoke"
    ) throws -> AuthState {
        let issuerURL = try #require(URL(string: issuer))
        return AuthState(
            server: AuthorizationServer(
                issuer: issuerURL,
                authorizationEndpoint: issuerURL.appendingPathComponent("authorize"),
                tokenEndpoint: issuerURL.appendingPathComponent("token"),
                revocationEndpoint: revocation.flatMap { URL(string: $0) }
            ),
            client: Client(id: "tool", redirectURI: try #require(URL(string: "http://127.0.0.1/callback")) as URL),
            accessToken: AccessToken("cli-access-token"),
            accessTokenExpiresAt: Date(timeIntervalSince1970: 1_800_003_600),
            refreshToken: RefreshToken("cli-refresh-token"),
            grantedScopes: ["email"],
            user: AuthState.User(subject: "7", email: "user@example.com")
        )
    }
}
