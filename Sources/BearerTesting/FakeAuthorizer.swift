public import Bearer
@_spi(Bridge) import BearerCore
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A fake ``Authorizer`` for an app's unit tests: stamps a token the test chooses, or fails as
/// the test says, and records every request it authorized, with no server and no session.
///
/// ```swift
/// let authorizer = FakeAuthorizer(token: "test-token", transport: RecordingTransport(replies: [.json(200, "{}")]))
/// let model = DriveModel(authorizer: authorizer)  // the app's code, which takes `some Authorizer`
/// try await model.refreshFiles()
/// #expect(await authorizer.authorizedRequests.count == 1)
/// ```
///
/// Like ``AuthSession``, it refuses to stamp a token on a plain-http URL (other than a loopback
/// address), so a test catches an app that would send one in clear.
public actor FakeAuthorizer: Authorizer {
    /// The access token stamped on requests; ``setToken(_:)`` changes it, as a refresh would.
    public private(set) var token: String
    /// The error ``authorize(_:)`` throws, when set: ``BearerError`` with kind
    /// ``BearerError/Kind/signInRequired`` for a user who must sign in again, for example.
    public private(set) var failure: (any Error)?
    /// The signed-in user the fake reports.
    public private(set) var user: AuthState.User?
    /// Every request passed to ``authorize(_:)``, as it came, in order.
    public private(set) var authorizedRequests: [URLRequest] = []
    private let transport: any HTTPTransport

    /// Creates a fake that stamps `token`.
    ///
    /// - Parameters:
    ///   - token: The access token to stamp.
    ///   - user: The user to report.
    ///   - transport: Sends the requests of ``data(for:)`` (a ``RecordingTransport`` with the
    ///     answers the test needs); by default one with no answers, so any request sent fails.
    public init(
        token: String = "test-access-token",
        user: AuthState.User? = nil,
        transport: any HTTPTransport = RecordingTransport()
    ) {
        self.token = token
        self.user = user
        self.transport = transport
    }

    /// Changes the token stamped from now on, as a refresh would.
    ///
    /// - Parameter token: The new access token.
    public func setToken(_ token: String) {
        self.token = token
    }

    /// Makes ``authorize(_:)`` throw `failure`, or succeed again with `nil`.
    ///
    /// - Parameter failure: The error to throw.
    public func fail(with failure: (any Error)?) {
        self.failure = failure
    }

    /// Whether a request would be authorized: no ``failure`` is set.
    public var canAuthorize: Bool { failure == nil }

    /// Records `request` and returns it with `Authorization: Bearer` and ``token``.
    ///
    /// - Parameter request: The request.
    /// - Returns: The authorized request.
    /// - Throws: ``failure`` when set; ``BearerError/Kind/insecureEndpoint`` for a URL that is
    ///   neither https nor http to a loopback address.
    public func authorize(_ request: URLRequest) async throws -> URLRequest {
        authorizedRequests.append(request)
        if let failure { throw failure }
        let url = request.url
        let scheme = url?.scheme?.lowercased()
        guard scheme == "https" || (scheme == "http" && EndpointSecurity.isLoopback(host: url?.host ?? "")) else {
            throw BearerError.insecureEndpoint(
                "\(url?.absoluteString ?? "The request") is not https; a token is never sent in clear."
            )
        }
        var authorized = request
        authorized.setBearerToken(AccessToken(token))
        return authorized
    }

    /// Authorizes `request` and sends it with the fake's transport, retrying once on a `401`
    /// with `invalid_token` when the token was changed meanwhile, as ``Authorizer/data(for:)`` does.
    ///
    /// - Parameter request: The request.
    /// - Returns: The body and response of the last attempt.
    /// - Throws: As ``authorize(_:)``; the transport's errors; ``OAuthError`` for `insufficient_scope`.
    public func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await data(for: request, sendingWith: transport)
    }
}
