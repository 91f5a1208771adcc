import Bearer
import Foundation

/// `--issuer URL | --google`, `--client-id`, `--client-secret` and `--allow-insecure-loopback`.
enum ServerOptions {
    static let valueOptions: Set<String> = ["issuer", "client-id", "client-secret"]
    static let flags: Set<String> = ["google", "allow-insecure-loopback"]

    /// The loopback redirect registered for tools; the listener adds its port (RFC 8252 §7.3).
    static let loopbackRedirect = URL(string: "http://127.0.0.1/callback") ?? URL(fileURLWithPath: "/")

    /// The server the flags name, discovered from `--issuer` or Google's preset.
    static func server(_ arguments: ParsedArguments, _ environment: CommandEnvironment, command: String) async throws
        -> AuthorizationServer
    {
        let insecure = arguments.has("allow-insecure-loopback")
        switch (arguments.value("issuer"), arguments.has("google")) {
        case (nil, true):
            return .google
        case (let issuer?, false):
            guard let url = URL(string: issuer), url.scheme != nil, url.host != nil else {
                throw UsageError(
                    "--issuer needs an absolute URL such as https://accounts.example.com.", command: command)
            }
            if url.scheme?.lowercased() == "http" && EndpointSecurity.isLoopback(host: url.host ?? "") && !insecure {
                throw UsageError(
                    "\(issuer) is plain http; add --allow-insecure-loopback to use a local test server.",
                    command: command
                )
            }
            return try await AuthorizationServer.discover(
                issuer: url,
                allowingInsecureLoopback: insecure,
                using: environment.transport
            )
        case (.some, true):
            throw UsageError("Give either --issuer or --google, not both.", command: command)
        case (nil, false):
            throw UsageError("Say which server to use: --issuer URL or --google.", command: command)
        }
    }

    static func client(_ arguments: ParsedArguments, command: String, redirect: URL = loopbackRedirect) throws -> Client
    {
        guard let id = arguments.value("client-id"), !id.isEmpty else {
            throw UsageError("--client-id is required.", command: command)
        }
        return Client(id: id, secret: arguments.value("client-secret").map(ClientSecret.init), redirectURI: redirect)
    }
}
