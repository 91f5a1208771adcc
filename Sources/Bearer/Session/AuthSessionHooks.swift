/// Customisation points of an ``AuthSession``, as GTMAppAuth's delegate offers.
public struct AuthSessionHooks: Sendable {
    /// Extra body parameters for each refresh request, computed from the session being refreshed.
    public var additionalRefreshParameters: @Sendable (AuthState) -> [String: String]
    /// Rewrites an error before the caller gets it (for example to map it to an app error).
    public var rewriteError: @Sendable (any Error) -> any Error

    /// Creates hooks; the defaults add nothing and rewrite nothing.
    ///
    /// - Parameters:
    ///   - additionalRefreshParameters: Extra refresh parameters.
    ///   - rewriteError: Error rewriting.
    public init(
        additionalRefreshParameters: @escaping @Sendable (AuthState) -> [String: String] = { _ in [:] },
        rewriteError: @escaping @Sendable (any Error) -> any Error = { $0 }
    ) {
        self.additionalRefreshParameters = additionalRefreshParameters
        self.rewriteError = rewriteError
    }
}
