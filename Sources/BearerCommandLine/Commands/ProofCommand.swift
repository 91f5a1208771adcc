import Bearer
@_spi(Bridge) import BearerCore
import Foundation

/// `bearer proof --method M --url U`: the two header lines a DPoP session's request needs, for
/// another HTTP client.
enum ProofCommand: Command {
    static let spec = CommandSpec(name: "proof", valueOptions: ["method", "url", "nonce"])

    static let summary = "print the Authorization and DPoP headers of one request of a DPoP session"

    static let help = """
        usage: bearer proof --method METHOD --url URL [--nonce NONCE] [--profile NAME] [--account ACCOUNT]

        Prints the two header lines one request needs with a DPoP session (RFC 9449), for another
        HTTP client: "Authorization: DPoP <token>" and "DPoP: <proof>", a proof signed by the
        session's key for that method and URL (without its query). A server that requires nonces
        refuses the first proof with 401 and a DPoP-Nonce header: run bearer proof again with
        --nonce set to that header's value. Refreshes the token first when it is about to expire. A
        proof is good for one request: print new ones for each. The URL must be one the profile may send tokens to
        (see bearer help curl). A Bearer session needs no proof: use bearer token.

        Example (bash, curl 7.55 or later): curl -H @<(bearer proof --method GET --url "$u") "$u"
        """

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        guard let method = arguments.value("method"), !method.isEmpty,
            method.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else {
            throw UsageError("--method is required: the request's method, such as GET or POST.", command: "proof")
        }
        guard let target = arguments.value("url"), let url = URL(string: target), url.scheme != nil, url.host != nil
        else {
            throw UsageError("--url is required: the request's absolute URL.", command: "proof")
        }
        let profile = try Profile(arguments, environment)
        let session = try await profile.session(in: environment)
        guard await session.state.accessTokenType == .dpop else {
            throw UsageError(
                "Profile \(profile.name) holds a Bearer session, which needs no proof: use bearer token, or sign in "
                    + "again with bearer login --dpop.", command: "proof")
        }
        let fields: HTTPHeaderFields
        do {
            fields = try await session.authorizationHeaderFields(
                method: method.uppercased(), url: url, nonce: arguments.value("nonce"))
        } catch {
            throw ErrorReport.InContext(
                error, profile: profile, allowedHosts: AllowedHosts.list(for: await session.state), host: url.host)
        }
        guard let authorization = fields["Authorization"], let proof = fields["DPoP"] else {
            throw UsageError("The session gave no proof for \(url.host ?? target).", command: "proof")
        }
        environment.console.out("Authorization: " + authorization)
        environment.console.out("DPoP: " + proof)
        return .success
    }
}
