#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Google's `external_account` credentials (Application Default Credentials for workload identity
/// federation), read into what ``AuthSession/derive(_:at:as:resource:store:key:transport:clock:configuration:)``
/// takes: the security token service, the client, and the recipe.
///
/// ```swift
/// let account = try GoogleExternalAccount(json: Data(contentsOf: credentialsFile))
/// let session = try await AuthSession.derive(
///     account.derivation, at: account.server, as: account.client, store: store, key: "gcp")
/// ```
///
/// A file-sourced credential (`credential_source.file`, text or JSON) is supported, with service
/// account impersonation where the file names it. URL, executable and AWS sources, and workforce
/// pools (`workforce_pool_user_project`), are refused with ``BearerError/Kind/invalidConfiguration``.
public struct GoogleExternalAccount: Sendable, Hashable {
    /// The scope asked for when none is given: `https://www.googleapis.com/auth/cloud-platform`.
    public static let defaultScopes = ["https://www.googleapis.com/auth/cloud-platform"]

    /// The security token service (`token_url`).
    public let server: AuthorizationServer
    /// The client: the file's `client_id` and `client_secret` where it has them; else one with an
    /// empty id, which sends no client authentication (Google's STS needs none).
    public let client: Client
    /// The recipe: the platform token from the file, exchanged for the audience, then the
    /// service account's token where the file names one.
    public let derivation: SessionDerivation

    /// Reads the credentials.
    ///
    /// - Parameters:
    ///   - json: The file's contents.
    ///   - scopes: The scopes asked for.
    ///   - allowingInsecureLoopback: Whether a `token_url` or impersonation URL on a loopback
    ///     address may be plain http (for a local security token service in tests).
    /// - Throws: ``BearerError/Kind/invalidConfiguration``, naming the field at fault.
    public init(json: Data, scopes: [String] = defaultScopes, allowingInsecureLoopback: Bool = false) throws {
        guard json.count <= 64 << 10, case .object(let file)? = try? JSONParser.parse(json) else {
            throw Self.refusal("is not a JSON object")
        }
        guard file["type"]?.stringValue == "external_account" else {
            throw Self.refusal("is not of type external_account")
        }
        guard let audience = file["audience"]?.stringValue, !audience.isEmpty else {
            throw Self.refusal("has no audience")
        }
        guard let tokenURL = file["token_url"]?.stringValue.flatMap(URL.init(string:)), tokenURL.host != nil else {
            throw Self.refusal("has no token_url")
        }
        try EndpointSecurity.check(tokenURL, allowingInsecureLoopback: allowingInsecureLoopback)
        if let project = file["workforce_pool_user_project"], project != .null {
            throw Self.refusal("is for a workforce pool (workforce_pool_user_project), which Bearer does not support")
        }
        guard case .object(let source)? = file["credential_source"] else {
            throw Self.refusal("has no credential_source")
        }
        guard let path = source["file"]?.stringValue, !path.isEmpty else {
            throw Self.refusal(
                "takes its token from a URL, an executable or AWS; Bearer reads tokens from a file "
                    + "(credential_source.file) only")
        }
        var field: String?
        if case .object(let format)? = source["format"], format["type"]?.stringValue == "json" {
            guard let name = format["subject_token_field_name"]?.stringValue, !name.isEmpty else {
                throw Self.refusal("has a JSON format without subject_token_field_name")
            }
            field = name
        }
        var impersonation: ServiceAccountImpersonation?
        if let text = file["service_account_impersonation_url"]?.stringValue {
            guard let url = URL(string: text), url.host != nil else {
                throw Self.refusal("has a service_account_impersonation_url that is not a URL")
            }
            try EndpointSecurity.check(url, allowingInsecureLoopback: allowingInsecureLoopback)
            var lifetime: TimeInterval = 3600
            if case .object(let settings)? = file["service_account_impersonation"],
                let seconds = settings["token_lifetime_seconds"]?.numberValue
            {
                guard seconds.isFinite, (600...43_200).contains(seconds) else {
                    throw Self.refusal("asks for a token lifetime outside 600 to 43200 seconds")
                }
                lifetime = seconds
            }
            impersonation = ServiceAccountImpersonation(url: url, lifetime: lifetime)
        }
        var origin = URLComponents()
        origin.scheme = tokenURL.scheme
        origin.host = tokenURL.host
        origin.port = tokenURL.port
        server = AuthorizationServer(
            issuer: origin.url ?? tokenURL, authorizationEndpoint: tokenURL, tokenEndpoint: tokenURL,
            allowsInsecureLoopback: allowingInsecureLoopback)
        client = Client(
            id: file["client_id"]?.stringValue ?? "", secret: file["client_secret"]?.stringValue.map(ClientSecret.init))
        derivation = .workloadIdentity(
            token: .file(path, jsonField: field),
            subjectTokenType: TokenTypeIdentifier(
                rawValue: file["subject_token_type"]?.stringValue ?? TokenTypeIdentifier.jwt.rawValue),
            audience: audience, scopes: scopes, serviceAccountImpersonation: impersonation)
    }

    private static func refusal(_ reason: String) -> BearerError {
        BearerError.invalidConfiguration(
            "The external_account credentials \(reason); nothing was sent. Make the file again with "
                + "`gcloud iam workload-identity-pools create-cred-config`.")
    }
}
