/// The span of a refresh in which the process should not end: from the moment its request is
/// sent until its outcome is saved, or the refresh failed.
///
/// A server that rotates refresh tokens may have retired the stored one as soon as it received
/// the request; until the answer is saved, its new refresh token exists only in this process. A
/// process that ends in between loses the grant on a server with reuse protection. The `bearer`
/// tool passes one of these in ``AuthSession/Configuration/refreshCriticalSection`` and holds back
/// SIGINT, SIGTERM and SIGHUP while it is entered; the session itself handles no signal.
///
/// ``AuthSession`` calls ``enter()`` just before it sends a refresh request and ``leave()`` once,
/// when the locked run that sent it ends: after the new state (or the `invalid_grant` mark) is
/// saved, or when the refresh or the save failed. Both are called from the run's task and must
/// not suspend; calls from several sessions may overlap.
@_spi(CommandLine) @_spi(Testing) public protocol RefreshCriticalSection: Sendable {
    /// A refresh request is about to be sent.
    func enter()
    /// The outcome of the refresh sent since the matching ``enter()`` is saved, or it failed.
    func leave()
}
