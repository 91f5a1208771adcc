import Bearer
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `bearer curl URL [-X METHOD] [-H "Name: value"]… [-d DATA]`: an authorized request; the body
/// goes to stdout.
enum CurlCommand: Command {
    static let spec = CommandSpec(
        name: "curl",
        valueOptions: ["request", "data"],
        repeatable: ["header"],
        shortNames: ["X": "request", "H": "header", "d": "data"],
        positionals: 1...1,
        positionalName: "URL"
    )

    static let summary = "send an authorized request; the response body goes to stdout"

    static let help = """
        usage: bearer curl URL [-X METHOD] [-H "Name: value"]… [-d DATA] [--profile NAME] [--account ACCOUNT]

        Sends the request with the profile's access token, refreshing it when needed (and once more
        if the server rejects it as invalid); a DPoP session's request carries a new proof signed by
        the session's key, and is sent once more with the server's nonce when it asks for one
        (RFC 9449). The response body goes to stdout. Exit 0 on a 2xx
        answer, 22 on any other status. -d sends DATA as a form body with POST unless -X says
        otherwise. Tokens are only ever sent over https (or loopback http when the profile allows it),
        and only to the profile's hosts: the issuer's (Google: *.googleapis.com) and those added
        with bearer login --allow-host HOST; any other host is refused before anything is sent.
        """

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        let target = arguments.positionals[0]
        guard let url = URL(string: target), url.scheme != nil, url.host != nil else {
            throw UsageError("\(target) is not an absolute URL.", command: "curl")
        }
        var request = URLRequest(url: url)
        if let data = arguments.value("data") {
            request.httpMethod = "POST"
            request.httpBody = Data(data.utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        }
        if let method = arguments.value("request") { request.httpMethod = method.uppercased() }
        for header in arguments.values["header"] ?? [] {
            guard let colon = header.firstIndex(of: ":"), colon > header.startIndex else {
                throw UsageError("-H needs \"Name: value\" with a colon after the name.", command: "curl")
            }
            let name = header[..<colon].trimmingCharacters(in: .whitespaces)
            guard !["authorization", "dpop"].contains(name.lowercased()) else {
                throw UsageError(
                    "bearer curl sets the Authorization and DPoP headers itself; remove -H \(name).", command: "curl")
            }
            request.setValue(
                header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces), forHTTPHeaderField: name)
        }
        let profile = try Profile(arguments, environment)
        let session = try await profile.session(in: environment)
        let (data, response): (Data, HTTPURLResponse)
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw ErrorReport.InContext(
                error, profile: profile, allowedHosts: AllowedHosts.list(for: await session.state), host: url.host)
        }
        environment.console.outRaw(data)
        guard (200..<300).contains(response.statusCode) else {
            environment.console.say("The server answered HTTP \(response.statusCode) for \(url.host ?? target).")
            return .httpError
        }
        return .success
    }
}
