#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// How an app is known to authorization servers it finds through a protected resource, in the
/// order the Model Context Protocol's authorization profile tries them:
///
/// 1. a client the app registered at that server beforehand (``clients``);
/// 2. else, where the server reads them, the app's Client ID Metadata Document: an https URL the
///    app serves, used as its client ID (``metadataDocument``);
/// 3. else dynamic client registration (RFC 7591) under ``name``, kept in the session store and
///    reused until the server or the redirect URI changes or the registration expires.
///
/// ```swift
/// let identity = ClientIdentity(
///     name: "Example Agent",
///     metadataDocument: URL(string: "https://agent.example.com/oauth/client.json"))
/// ```
public struct ClientIdentity: Sendable, Hashable {
    /// The name shown to users on consent pages (`client_name`).
    public var name: String
    /// The https URL of the app's Client ID Metadata Document, whose `client_id` is this URL and
    /// whose `redirect_uris` list the agent's redirect URI; `nil` when the app serves none.
    public var metadataDocument: URL?
    /// Clients registered beforehand, by the issuer of their server.
    public var clients: [URL: Client]

    /// Describes the app.
    ///
    /// - Parameters:
    ///   - name: The name shown on consent pages.
    ///   - metadataDocument: The URL of the app's Client ID Metadata Document, if it serves one.
    ///   - clients: Clients registered beforehand, by issuer.
    public init(name: String, metadataDocument: URL? = nil, clients: [URL: Client] = [:]) {
        self.name = name
        self.metadataDocument = metadataDocument
        self.clients = clients
    }

    /// The client registered beforehand at `server`, if any (issuers compared exactly).
    func configuredClient(at server: AuthorizationServer) -> Client? {
        clients.first { $0.key.absoluteString == server.issuer.absoluteString }?.value
    }
}
