import Bearer
@_spi(CommandLine) @_spi(Internals) import BearerCore
import Foundation

/// `bearer client-key FILE`: makes a `private_key_jwt` client's key in FILE where there is none,
/// and prints the public JWK Set to register with the server.
enum ClientKeyCommand: Command {
    static let spec = CommandSpec(name: "client-key", positionals: 1...1, positionalName: "FILE")

    static let summary = "make a client key for private_key_jwt and print its public key set"

    static let help = """
        usage: bearer client-key FILE

        Prints the public JWK Set (RFC 7517) of the client key in FILE, to register with the
        authorization server as the client's jwks: one P-256 key, alg ES256, kid its thumbprint.
        Where FILE does not exist, a new key is made first and written to FILE with mode 0600; an
        existing file is never replaced. The private key is never printed.

        Sign in with bearer login --client-key-file FILE: the client then authenticates with
        private_key_jwt (RFC 7523), a short-lived assertion signed by the key instead of a client
        secret. The profile remembers the file, and its refreshes read the key from it again.
        With a resource URL, the tool registers itself with this key set.
        """

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        guard let path = arguments.positionals.first, !path.isEmpty else {
            throw UsageError("Name the key file: bearer client-key FILE.", command: "client-key")
        }
        let file = ClientKeyFile(path: path)
        let (key, isNew) = try await file.existingOrNewKey()
        if isNew {
            environment.console.say(
                "Made a new client key in \(file.url.path.printable) (mode 0600); register this key set with the "
                    + "server:")
        }
        environment.console.out(ClientAssertion.publicKeySet(of: key.record.publicKey))
        return .success
    }
}
