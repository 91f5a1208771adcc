import Foundation

/// Does in tests what a user's browser does, by running `scripts/headless-browser` (the one
/// implementation of the server's login, consent and device-code forms, which the demo uses too)
/// with the end-to-end virtual environment's Python. It signs in as alice.
enum Browser {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let script = root.appendingPathComponent("scripts/headless-browser")

    /// The Python of `BEARER_E2E_VENV` (as in scripts/test), by default `.build/e2e-venv`.
    static let python = URL(
        fileURLWithPath: ProcessInfo.processInfo.environment["BEARER_E2E_VENV"]
            ?? root.appendingPathComponent(".build/e2e-venv").path
    ).appendingPathComponent("bin/python")

    /// The command the `bearer` tool is given with `--open-with`.
    static var command: String {
        get throws {
            try checkInstalled()
            return "'\(python.path)' '\(script.path)' --quiet"
        }
    }

    /// Opens an authorization URL, approves (or denies) consent, and returns the URL the server
    /// redirects to, without following it.
    static func authorize(_ url: URL, allow: Bool = true) async throws -> URL {
        let output = try await run((allow ? [] : ["--deny"]) + ["--print-redirect", url.absoluteString])
        guard let redirect = URL(string: output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "scripts/headless-browser printed something other than a URL")
        }
        return redirect
    }

    /// Opens an authorization URL, approves consent, follows the redirect (to bearer's listener)
    /// and returns the page the listener answers with.
    static func authorizeAsAlice(_ url: String) async throws -> String {
        try await run(["--print-page", url])
    }

    /// Enters a device flow user code on the server's forms and approves or denies it.
    static func approveDevice(userCode: String, approve: Bool) async throws {
        _ = try await run(["--device-code", userCode] + (approve ? [] : ["--deny"]))
    }

    /// Runs the script to completion and returns its stdout; its stderr (which never holds a
    /// code or a token) explains a failure.
    private static func run(_ arguments: [String]) async throws -> String {
        try checkInstalled()
        let result = try await ChildProcess(python, arguments: [script.path, "--quiet"] + arguments).finish()
        guard result.status == 0 else {
            throw Failure(description: "scripts/headless-browser failed (exit \(result.status)): \(result.stderr)")
        }
        return result.output
    }

    /// Fails the test, rather than letting it wait for a browser that never comes.
    private static func checkInstalled() throws {
        for file in [script, python] where !FileManager.default.fileExists(atPath: file.path) {
            throw Failure(
                description: """
                    The headless browser cannot run: \(file.path) does not exist. scripts/test (or \
                    scripts/e2e-server start) creates the virtual environment.
                    """)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
