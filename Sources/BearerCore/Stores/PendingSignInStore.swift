/// Where a server fleet keeps its ``PendingSignIn``s between the instance that begins a web
/// sign-in and the one that finishes it.
///
/// ``takePendingSignIn(state:)`` must remove what it returns in the same step, so that of two
/// instances handed the same callback (a replayed or double-submitted URL), one gets the pending
/// sign-in and the other nothing: an authorization code is exchanged at most once, and a server
/// that sees a code twice may revoke what the first exchange issued. `PostgresSessionStore` and
/// ``InMemorySessionStore`` conform.
public protocol PendingSignInStore: Sendable {
    /// Keeps `pending` under its ``PendingSignIn/state``.
    ///
    /// - Parameter pending: The pending sign-in.
    /// - Throws: When it cannot be kept.
    func savePendingSignIn(_ pending: PendingSignIn) async throws

    /// Removes and returns the pending sign-in kept under `state`.
    ///
    /// - Parameter state: The callback's `state`.
    /// - Returns: The pending sign-in, or `nil` when none is kept under `state` (never begun
    ///   here, or already taken).
    /// - Throws: When the store cannot be read, or the record cannot be decoded (it is removed).
    func takePendingSignIn(state: String) async throws -> PendingSignIn?
}
