import Bearer
@_spi(CommandLine) @_spi(Internals) import BearerCore
import Foundation

/// `bearer migrate --from adc FILE` for Google's `external_account` credentials (workload
/// identity federation): the profile's session is derived from the platform token the file
/// names, exchanged at the security token service now and again whenever it is stale.
enum ExternalAccountImport {
    /// Whether `data` is an `external_account` credentials file.
    static func isExternalAccount(_ data: Data) -> Bool {
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: data) else { return false }
        return object["type"]?.stringValue == "external_account"
    }

    static func run(
        _ data: Data, from path: String, profile: Profile, arguments: ParsedArguments,
        environment: CommandEnvironment
    ) async throws -> ExitCode {
        if let given = ["issuer", "client-id", "client-secret", "client-secret-file", "google"].first(where: {
            arguments.value($0) != nil || arguments.has($0)
        }) {
            throw UsageError(
                "\(path) names its token service and client itself; give it without --\(given).", command: "migrate")
        }
        if !arguments.has("force"), try await profile.store.load(key: profile.name) != nil {
            throw UsageError(
                "Profile \(profile.name) already has a session; pass --force to replace it, or choose another "
                    + "--profile.", command: "migrate")
        }
        let scopes = arguments.value("scope").map(Scopes.parse) ?? GoogleExternalAccount.defaultScopes
        let account = try GoogleExternalAccount(
            json: data, scopes: scopes, allowingInsecureLoopback: arguments.has("allow-insecure-loopback"))
        let hosts = try AllowedHosts.given(arguments, command: "migrate")
        let session = try await AuthSession.derive(
            account.derivation, at: account.server, as: account.client, store: profile.store, key: profile.name,
            transport: environment.transport, clock: environment.clock)
        var state = await session.state
        AllowedHosts.record(hosts, in: &state)
        if state != (await session.state) { try await session.replace(with: state) }
        environment.console.say(
            "Imported the workload identity credentials of \(path) into profile \(profile.name): its token is "
                + "exchanged from \(account.derivation.workloadToken?.path.printable ?? "the platform token") whenever "
                + "it is stale. \(path) was not changed.")
        return .success
    }
}
