import Bearer
@_spi(CommandLine) import BearerCore
import Foundation

/// The hosts a profile sends its tokens to: Google's APIs (`*.googleapis.com`) for a Google
/// profile, the issuer's host for any other, plus every `--allow-host` given at sign-in, which is
/// saved with the profile.
enum AllowedHosts {
    /// Where the hosts added with `--allow-host` are saved in the session, separated by spaces.
    static let metadataKey = "bearer.allowedHosts"

    /// The hosts `--allow-host` names: host names, or `*.example.com` for the subdomains of one.
    static func given(_ arguments: ParsedArguments, command: String) throws -> [String] {
        try (arguments.values["allow-host"] ?? []).map { host in
            let name = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
            let valid =
                !name.isEmpty && !name.hasPrefix(".") && !name.hasSuffix(".")
                && name.unicodeScalars.allSatisfy { scalar in
                    scalar.isASCII
                        && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == ".")
                }
            guard valid else {
                throw UsageError(
                    "--allow-host needs a host name such as api.example.com (or *.example.com for its subdomains), "
                        + "without a scheme, port or path; got \"\(host)\".",
                    command: command
                )
            }
            return host.lowercased()
        }
    }

    /// Saves `hosts` in `state`, replacing any saved before; no hosts removes the entry.
    static func record(_ hosts: [String], in state: inout AuthState) {
        state.metadata[metadataKey] = hosts.isEmpty ? nil : hosts.joined(separator: " ")
    }

    /// The hosts saved in `state` with `--allow-host`.
    static func recorded(in state: AuthState) -> [String] {
        state.metadata[metadataKey].map { $0.split(separator: " ").map(String.init) } ?? []
    }

    /// Every host the profile of `state` sends tokens to: for a session of one protected
    /// resource, the resource's host (the session refuses every URL outside the resource anyway).
    static func list(for state: AuthState) -> [String] {
        if let resource = state.resource { return [resource.identifier.host].compactMap { $0 } }
        let defaults =
            state.server.isGoogle
            ? AuthSession.Configuration.google.allowedHosts ?? [] : [state.server.issuer.host].compactMap { $0 }
        var seen = Set<String>()
        return (defaults + recorded(in: state)).filter { seen.insert($0.lowercased()).inserted }
    }
}
