import Bearer
@_spi(CommandLine) import BearerCore
import Foundation

/// `--issuer URL | --google`, `--client-id`, the client secret (`--client-secret-file FILE`,
/// `$BEARER_CLIENT_SECRET` or `--client-secret`) or key (`--client-key-file FILE`, which only
/// `login` takes), `--allow-insecure-loopback` and `--allow-host`.
enum ServerOptions {
    static let valueOptions: Set<String> = ["issuer", "client-id", "client-secret", "client-secret-file"]
    static let repeatable: Set<String> = ["allow-host"]
    static let flags: Set<String> = ["google", "allow-insecure-loopback"]

    /// The environment variable that may hold the client secret, out of sight of `ps`.
    static let secretVariable = "BEARER_CLIENT_SECRET"

    /// The loopback redirect registered for tools; the listener adds its port (RFC 8252 §7.3).
    static let loopbackRedirect = URL(string: "http://127.0.0.1/callback") ?? URL(fileURLWithPath: "/")

    /// The server the flags name, discovered from `--issuer` or Google's preset.
    static func server(_ arguments: ParsedArguments, _ environment: CommandEnvironment, command: String) async throws
        -> AuthorizationServer
    {
        guard let issuer = try issuer(arguments, command: command) else {
            throw UsageError("Say which server to use: --issuer URL or --google.", command: command)
        }
        if arguments.has("google") { return .google }
        return try await AuthorizationServerClient(transport: environment.transport).discover(
            issuer: issuer,
            allowingInsecureLoopback: arguments.has("allow-insecure-loopback")
        )
    }

    /// The issuer `--issuer` or `--google` names, checked but not discovered; `nil` when neither is given.
    static func issuer(_ arguments: ParsedArguments, command: String) throws -> URL? {
        switch (arguments.value("issuer"), arguments.has("google")) {
        case (nil, true):
            return AuthorizationServer.google.issuer
        case (let issuer?, false):
            guard let url = URL(string: issuer), url.scheme != nil, url.host != nil else {
                throw UsageError(
                    "--issuer needs an absolute URL such as https://accounts.example.com.", command: command)
            }
            if url.scheme?.lowercased() == "http" && EndpointSecurity.isLoopback(host: url.host ?? "")
                && !arguments.has("allow-insecure-loopback")
            {
                throw UsageError(
                    "\(issuer) is plain http; add --allow-insecure-loopback to use a local test server.",
                    command: command
                )
            }
            return url
        case (.some, true):
            throw UsageError("Give either --issuer or --google, not both.", command: command)
        case (nil, false):
            return nil
        }
    }

    /// The client `--client-id` and the secret options name.
    static func client(
        _ arguments: ParsedArguments,
        _ environment: CommandEnvironment,
        command: String,
        redirect: URL = loopbackRedirect
    ) throws -> Client {
        guard let id = arguments.value("client-id"), !id.isEmpty else {
            throw UsageError("--client-id is required.", command: command)
        }
        // The key file itself is read and checked once, by clientKeyFile(_:command:).
        if arguments.value("client-key-file") != nil {
            return Client(id: id, redirectURI: redirect, authentication: .privateKeyJWT)
        }
        return Client(id: id, secret: try secret(arguments, environment, command: command), redirectURI: redirect)
    }

    /// The key file `--client-key-file FILE` names, read once so that a bad one fails before the
    /// sign-in starts; `nil` without the option. Its client authenticates with `private_key_jwt`.
    ///
    /// - Throws: ``UsageError`` when a client secret is given too; the file's error when it holds no usable key.
    static func clientKeyFile(_ arguments: ParsedArguments, command: String) throws -> ClientKeyFile? {
        guard let path = arguments.value("client-key-file") else { return nil }
        guard arguments.value("client-secret-file") == nil, arguments.value("client-secret") == nil else {
            throw UsageError(
                "Give either --client-key-file or a client secret, not both: a client authenticates one way.",
                command: command)
        }
        guard !path.isEmpty else { throw UsageError("--client-key-file needs a file.", command: command) }
        let file = ClientKeyFile(path: path)
        _ = try file.read()
        return file
    }

    /// What `--assertion-audience issuer|endpoint` names as the audience of the client's
    /// assertions: the issuer unless `endpoint` is given, for a server that accepts nothing else.
    ///
    /// - Throws: ``UsageError`` for another value, or without `--client-key-file`.
    static func assertionAudience(_ arguments: ParsedArguments, command: String) throws -> ClientAssertionAudience {
        switch arguments.value("assertion-audience") {
        case nil, "issuer"?:
            return .issuer
        case "endpoint"?:
            guard arguments.value("client-key-file") != nil else {
                throw UsageError(
                    "--assertion-audience is for a client that signs assertions; give --client-key-file too.",
                    command: command)
            }
            return .endpoint
        case let other?:
            throw UsageError(
                "--assertion-audience is issuer (the default) or endpoint, not \"\(other)\".", command: command)
        }
    }

    /// The client secret: from `--client-secret-file FILE` or `--client-secret S`, else from
    /// `$BEARER_CLIENT_SECRET`; `nil` for a public client.
    ///
    /// A file or the environment keeps the secret out of the process's arguments, which every
    /// local user can read for as long as the command runs.
    static func secret(_ arguments: ParsedArguments, _ environment: CommandEnvironment, command: String) throws
        -> ClientSecret?
    {
        switch (arguments.value("client-secret-file"), arguments.value("client-secret")) {
        case (.some, .some):
            throw UsageError("Give either --client-secret-file or --client-secret, not both.", command: command)
        case (let path?, nil):
            return ClientSecret(try SecretFile.read(path, command: command))
        case (nil, let secret?):
            guard !secret.isEmpty else { throw UsageError("--client-secret is empty.", command: command) }
            return ClientSecret(secret)
        case (nil, nil):
            guard let secret = environment.variables[secretVariable], !secret.isEmpty else { return nil }
            return ClientSecret(secret)
        }
    }
}
