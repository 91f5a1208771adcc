import Bearer
import BearerCommandLine
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

@Suite("What the bearer executable answers without the network")
struct FastPathTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-fast-\(UUID().uuidString)")
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func local(_ capture: Capture) -> LocalEnvironment {
        LocalEnvironment(variables: ["BEARER_CONFIG_DIR": folder.path], console: capture.console, clock: .fixed(now))
    }

    private func whole(_ capture: Capture) -> CommandEnvironment {
        CommandEnvironment(
            variables: ["BEARER_CONFIG_DIR": folder.path],
            console: capture.console,
            transport: RecordingTransport(),
            clock: .fixed(now)
        )
    }

    private func session(expiresIn: TimeInterval) throws -> AuthState {
        guard let issuer = URL(string: "https://auth.example.com"),
            let token = URL(string: "https://auth.example.com/token"),
            let redirect = URL(string: "http://127.0.0.1/callback")
        else { throw BearerError.invalidConfiguration("test setup") }
        return AuthState(
            server: AuthorizationServer(issuer: issuer, authorizationEndpoint: issuer, tokenEndpoint: token),
            client: Client(id: "tool", redirectURI: redirect),
            accessToken: AccessToken("fast-access-token"),
            accessTokenExpiresAt: now.addingTimeInterval(expiresIn),
            accessTokenLifetime: 3600,
            refreshToken: RefreshToken("fast-refresh-token"),
            grantedScopes: ["email"],
            user: AuthState.User(subject: "7", email: "user@example.com")
        )
    }

    private func save(_ state: AuthState, profile: String = "default") async throws {
        try await FileSessionStore(directory: folder).save(state, key: profile)
    }

    @Test("token prints a fresh stored token and nothing else")
    func freshToken() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await save(try session(expiresIn: 61))
        let capture = Capture()
        #expect(FastPath.run(["token"], environment: local(capture)) == 0)
        #expect(capture.stdout == "fast-access-token\n")
        #expect(capture.stderr.isEmpty)
    }

    @Test(
        "token leaves a token within the leeway, an expired one and a missing one to the whole tool",
        arguments: [TimeInterval?.some(60), -10, nil]
    )
    func tokenNeedingRefresh(expiresIn: TimeInterval?) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var state = try session(expiresIn: expiresIn ?? 3600)
        if expiresIn == nil { state.accessToken = nil }
        try await save(state)
        let capture = Capture()
        #expect(FastPath.run(["token"], environment: local(capture)) == nil)
        #expect(capture.stdout.isEmpty && capture.stderr.isEmpty)
    }

    @Test("A marked session with a fresh token is left to the whole tool, as the session's lifecycle says")
    func markedSession() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await save(try session(expiresIn: 3600).markingSignInRequired(OAuthError(code: .invalidGrant)))
        let capture = Capture()
        #expect(FastPath.run(["token"], environment: local(capture)) == nil)
        #expect(capture.stdout.isEmpty && capture.stderr.isEmpty)
    }

    @Test("A missing or unreadable session, help, usage errors and other commands are left to the whole tool")
    func leftToTheWholeTool() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: folder.appendingPathComponent("broken.json"))
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: folder.appendingPathComponent("broken.json").path)
        let commands: [[String]] = [
            [], ["token"], ["status"], ["token", "--profile", "broken"], ["status", "--profile", "broken"],
            ["token", "--profile", "../x"], ["token", "--help"], ["status", "-h"], ["token", "--bogus"],
            ["status", "extra"], ["--version", "extra"], ["--help"], ["login"], ["curl", "https://example.com"],
        ]
        for arguments in commands {
            let capture = Capture()
            #expect(FastPath.run(arguments, environment: local(capture)) == nil, "\(arguments)")
            #expect(capture.stdout.isEmpty && capture.stderr.isEmpty, "\(arguments)")
        }
    }

    @Test(
        "status prints exactly what the whole tool prints",
        arguments: [
            ["status"], ["status", "--json"], ["status", "--profile", "work"], ["status", "--json", "--profile=work"],
        ]
    )
    func statusAsTheWholeTool(arguments: [String]) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await save(try session(expiresIn: 1800))
        try await save(try session(expiresIn: -5), profile: "work")
        let fast = Capture()
        let full = Capture()
        #expect(FastPath.run(arguments, environment: local(fast)) == 0)
        #expect(await BearerCommandLine.run(arguments, environment: whole(full)) == 0)
        #expect(fast.stdout == full.stdout)
        #expect(fast.stderr.isEmpty && full.stderr.isEmpty)
        #expect(!fast.stdout.contains("fast-access-token") && !fast.stdout.contains("fast-refresh-token"))
    }

    @Test(
        "Expiry times are written as Foundation's internet date-time formatter writes them",
        arguments: [0, 1_800_000_000.75, 1_699_999_999.999, 951_782_400, 4_102_444_799, 32_503_680_000, -1]
    )
    func internetDateTime(seconds: TimeInterval) {
        let date = Date(timeIntervalSince1970: seconds)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        #expect(StatusCommand.internetDateTime(date) == formatter.string(from: date))
    }

    @Test("--version prints the version that CHANGELOG.md's newest entry names, in both executables")
    func versionMatchesChangelog() async throws {
        let changelog = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("CHANGELOG.md")
        let text = try String(contentsOf: changelog, encoding: .utf8)
        let newest = try #require(
            text.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") })
        #expect(newest.hasPrefix("## [\(Version.current)] - "), "\(newest)")
        let fast = Capture()
        let full = Capture()
        #expect(FastPath.run(["--version"], environment: local(fast)) == 0)
        #expect(await BearerCommandLine.run(["--version"], environment: whole(full)) == 0)
        #expect(fast.stdout == "bearer \(Version.current)\n")
        #expect(full.stdout == fast.stdout)
    }

    @Test("The whole tool is looked for next to bearer, then in ../libexec/bearer")
    func wholeToolLocations() {
        #expect(
            FullTool.candidates(besides: "/opt/tools/bin/bearer") == [
                "/opt/tools/bin/bearer-full", "/opt/tools/bin/../libexec/bearer/bearer-full",
            ])
    }
}

@Suite("A bearer built by SwiftPM in a checkout builds the whole tool there, and only in its own checkout")
struct CheckoutBuildTests {
    private let manifest = #"let package = Package(products: [.executable(name: "bearer-full", targets: [])])"#
    private let debug = FullTool.PackageBuild(
        package: "/src/bearer", folder: "/src/bearer/.build/x86_64-unknown-linux-gnu/debug", configuration: "debug")

    @Test(
        "The package and configuration are read from the executable's folder, <package>/.build/<triple>/<configuration>"
    )
    func findsThePackage() {
        let manifests = [
            "/src/bearer/Package.swift": manifest, "/src/other/Package.swift": "let package = Package()",
            "/shared/Package.swift": manifest, "/shared/x/Package.swift": manifest,
        ]
        let read: (String) -> String? = { manifests[$0] }
        #expect(
            FullTool.packageBuild(inFolder: "/src/bearer/.build/x86_64-unknown-linux-gnu/debug", manifest: read)
                == debug)
        #expect(FullTool.packageBuild(inFolder: "/src/other/.build/arm64-apple-macosx/debug", manifest: read) == nil)
        #expect(FullTool.packageBuild(inFolder: "/usr/local/bin", manifest: read) == nil)
        #expect(FullTool.packageBuild(inFolder: "/opt/debug", manifest: read) == nil)
        // A scratch folder elsewhere (--scratch-path) is never taken for a checkout: the manifests a
        // few folders up are not this build's.
        #expect(
            FullTool.packageBuild(inFolder: "/shared/x/scratch/x86_64-unknown-linux-gnu/release", manifest: read) == nil
        )
        #expect(
            FullTool.packageBuild(inFolder: "/shared/x/.build/static/x86_64-unknown-linux-gnu/release", manifest: read)
                == nil)
        #expect(
            debug.arguments == [
                "swift", "build", "--package-path", "/src/bearer", "-c", "debug", "--product", "bearer-full",
            ])
    }

    @Test("The manifest and every folder from the package to the executable's are checked")
    func guardedPaths() {
        #expect(
            debug.guardedPaths == [
                "/src/bearer/Package.swift", "/src/bearer", "/src/bearer/.build",
                "/src/bearer/.build/x86_64-unknown-linux-gnu", "/src/bearer/.build/x86_64-unknown-linux-gnu/debug",
            ])
    }

    @Test(
        "A checkout that is the user's alone is built; one that others can change is not",
        arguments: [
            ("private", nil, nil),
            ("private group", nil, nil),
            ("shared folder", "/src/bearer", "can be changed by every user (mode 0777)"),
            (
                "shared group", "/src/bearer/.build",
                "can be changed by the members of its group 100 (mode 0775), which is not your private group "
                    + "(a group named after you with no other members)"
            ),
            ("other owner", "/src/bearer/Package.swift", "belongs to another user"),
            ("linked manifest", "/src/bearer/Package.swift", "is a symbolic link"),
            ("unreadable", "/src/bearer/.build/x86_64-unknown-linux-gnu", "cannot be inspected"),
        ] as [(String, String?, String?)])
    func trust(name: String, path: String?, reason: String?) {
        let user: UInt32 = 501
        let privateGroup: UInt32 = 501
        let ownership: (String) -> FullTool.FileOwnership? = { file in
            if name == "private group" {
                return FullTool.FileOwnership(owner: user, group: privateGroup, mode: 0o775, isSymbolicLink: false)
            }
            guard file == path else { return FullTool.FileOwnership(owner: user, mode: 0o755, isSymbolicLink: false) }
            switch name {
            case "shared folder": return FullTool.FileOwnership(owner: user, mode: 0o777, isSymbolicLink: false)
            case "shared group":
                return FullTool.FileOwnership(owner: user, group: 100, mode: 0o775, isSymbolicLink: false)
            case "other owner": return FullTool.FileOwnership(owner: 0, mode: 0o644, isSymbolicLink: false)
            case "linked manifest": return FullTool.FileOwnership(owner: user, mode: 0o777, isSymbolicLink: true)
            default: return nil
            }
        }
        let untrusted = FullTool.untrustedPath(
            of: debug, ownership: ownership, user: user, isPrivateGroup: { $0 == privateGroup })
        if let path, let reason {
            #expect(untrusted == "\(path) \(reason)")
        } else {
            #expect(untrusted == nil)
        }
    }

    @Test("A group is the user's private group when it is named after the user and has no other member")
    func privateGroups() {
        #expect(FullTool.GroupEntry(name: "ada", members: []).isPrivateGroup(of: "ada"))
        #expect(FullTool.GroupEntry(name: "ada", members: ["ada"]).isPrivateGroup(of: "ada"))
        #expect(!FullTool.GroupEntry(name: "ada", members: ["ada", "bob"]).isPrivateGroup(of: "ada"))
        #expect(!FullTool.GroupEntry(name: "staff", members: []).isPrivateGroup(of: "ada"))
        #expect(!FullTool.GroupEntry(name: "", members: []).isPrivateGroup(of: ""))
    }

    @Test("The group database is read for the running user: root's group 0 is root's private group only when it is")
    func privateGroupOfTheRunningUser() throws {
        let user = UInt32(geteuid())
        let name = try #require(FullTool.userName(of: user))
        let group = UInt32(getegid())
        let entry = try #require(FullTool.groupEntry(of: group))
        #expect(FullTool.isPrivateGroup(group, of: user) == entry.isPrivateGroup(of: name))
        #expect(!FullTool.isPrivateGroup(UInt32.max - 1, of: user), "a group the database does not know")
    }

    @Test("A bearer-full is run only from where only the user or root can write")
    func executableTrust() {
        let user: UInt32 = 501
        let group: UInt32 = 20
        let sharedGroup: UInt32 = 100
        let paths = ["/opt/tools/bin/bearer-full", "/opt/tools/bin", "/opt/tools"]
        func verdict(_ files: [String: FullTool.FileOwnership]) -> String? {
            FullTool.untrustedExecutablePath(
                paths,
                ownership: {
                    files[$0] ?? FullTool.FileOwnership(owner: 0, group: 0, mode: 0o755, isSymbolicLink: false)
                },
                user: user, isPrivateGroup: { $0 == group })
        }
        #expect(verdict([:]) == nil, "root's install")
        #expect(
            verdict(["/opt/tools/bin": .init(owner: user, group: group, mode: 0o775, isSymbolicLink: false)]) == nil,
            "writable by the user's private group")
        #expect(
            verdict(["/opt/tools/bin": .init(owner: user, group: sharedGroup, mode: 0o775, isSymbolicLink: false)])
                == "/opt/tools/bin can be changed by the members of its group 100 (mode 0775), which is not your "
                + "private group (a group named after you with no other members)")
        #expect(
            verdict(["/opt/tools": .init(owner: user, group: group, mode: 0o777, isSymbolicLink: false)])
                == "/opt/tools can be changed by every user (mode 0777)")
        #expect(
            verdict(["/opt/tools/bin/bearer-full": .init(owner: 502, group: group, mode: 0o755, isSymbolicLink: false)])
                == "/opt/tools/bin/bearer-full belongs to another user")
    }
}
