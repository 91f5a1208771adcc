#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The clients Bearer registered at authorization servers, kept in the session store beside the
/// sessions: one record per server, under ``ResourceSessionKeys/registration(at:)``, holding the
/// server and the client (its secret, when it has one, is as safe as the store's tokens) and no
/// token.
struct ClientRegistrationStore: Sendable {
    let store: any SessionStore

    /// The client registered at `server` before, if a readable record for that issuer is kept.
    /// An unreadable record is left as it is, and a new registration is made.
    func client(at server: AuthorizationServer) async -> Client? {
        let key = ResourceSessionKeys.registration(at: server.issuer)
        guard let record = try? await store.load(key: key),
            record.server.issuer.absoluteString == server.issuer.absoluteString
        else { return nil }
        return record.client
    }

    /// Keeps `client` as the one registered at `server`, replacing the record before it. Best
    /// effort: a record that cannot be written costs a registration at the next sign-in, and the
    /// session being signed in keeps the client anyway.
    func keep(_ client: Client, at server: AuthorizationServer) async {
        let key = ResourceSessionKeys.registration(at: server.issuer)
        _ = try? await store.withExclusiveAccess(to: key) { access in
            let stored = try? await access.load()
            try await access.save(AuthState(server: server, client: client), replacing: stored)
        }
    }
}
