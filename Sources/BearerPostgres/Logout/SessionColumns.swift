import BearerCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a row says of its session beside the (possibly sealed) state, so that a logout token finds
/// the sessions it names by an index: the issuer, the client, the user and the provider session.
/// None is a credential; an empty value stands for none (SQL `NULL` through `nullif`).
struct SessionColumns: Sendable {
    let issuer: String
    let clientID: String
    let subject: String
    let providerSession: String

    init(_ state: AuthState) {
        issuer = state.server.issuer.absoluteString
        clientID = state.client.id
        subject = state.user?.subject ?? ""
        providerSession = state.providerSessionID ?? ""
    }

    /// The four values, in the order the statements take them.
    var parameters: [PostgresConnection.Parameter] {
        [.text(issuer), .text(clientID), .text(subject), .text(providerSession)]
    }
}
