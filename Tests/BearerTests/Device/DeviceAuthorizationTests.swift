import Bearer
import BearerTestSupport
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Records the waits the device flow asks for, moving a test clock instead of sleeping.
private final class Waits: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Duration] = []
    let clock: TestClock

    init(_ clock: TestClock) {
        self.clock = clock
    }

    var all: [Duration] { lock.withLock { recorded } }

    func wait(_ duration: Duration) {
        lock.withLock { recorded.append(duration) }
        clock.advance(by: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    /// A clock reading ``clock`` whose waits are recorded, then move it on.
    var wallClock: WallClock {
        WallClock(waitingWith: { self.wait($0) }, { self.clock.now })
    }
}

@Suite("Device authorization grant (RFC 8628)")
struct DeviceAuthorizationTests {
    private var server: AuthorizationServer {
        var server = Fixtures.server
        server.deviceAuthorizationEndpoint = Fixtures.url("https://auth.example.com/device")
        return server
    }

    private let start = RecordingTransport.Reply.json(
        200,
        #"{"device_code":"dev-code","user_code":"WDJB-MJHT","verification_uri":"https://auth.example.com/device","verification_uri_complete":"https://auth.example.com/device?user_code=WDJB-MJHT","expires_in":60,"interval":5}"#
    )

    @Test("Polls at the interval, adds 5 s on slow_down, and returns the session")
    func pollsUntilApproved() async throws {
        let clock = TestClock(Fixtures.epoch)
        let transport = RecordingTransport(replies: [
            start,
            .json(400, #"{"error":"authorization_pending"}"#),
            .json(400, #"{"error":"slow_down"}"#),
            .json(
                200,
                #"{"access_token":"at","token_type":"Bearer","expires_in":3600,"refresh_token":"rt","scope":"email"}"#),
        ])
        let device = try await AuthorizationServerClient(transport: transport, clock: clock.wallClock)
            .startDeviceAuthorization(at: server, as: Fixtures.publicClient, scopes: ["email"])
        #expect(device.userCode == "WDJB-MJHT")
        #expect(device.verificationURIComplete?.absoluteString.hasSuffix("user_code=WDJB-MJHT") == true)
        #expect(!"\(device)".contains("dev-code"))
        let waits = Waits(clock)
        let reported = Recorder<DeviceSignInProgress>()
        let state = try await AuthorizationServerClient(transport: transport, clock: waits.wallClock).waitForApproval(
            of: device, progress: reported.record)
        #expect(state.accessToken?.value == "at")
        #expect(
            reported.all == [
                .waiting(secondsLeft: 60), .waiting(secondsLeft: 55), .slowedDown(interval: 10),
                .waiting(secondsLeft: 50),
            ])
        #expect(state.grantedScopes == ["email"])
        #expect(waits.all == [.seconds(5), .seconds(5), .seconds(10)])
        let polls = await transport.requests.dropFirst().map(\.formBody)
        #expect(
            polls.allSatisfy { $0["grant_type"] == DeviceAuthorization.grantType && $0["device_code"] == "dev-code" })
        #expect(await transport.requests.first?.formBody["scope"] == "email")
    }

    @Test("Progress is awaited: a report that updates a UI on the main actor ends before the next poll")
    func progressIsAwaited() async throws {
        let clock = TestClock(Fixtures.epoch)
        let transport = RecordingTransport(replies: [
            start,
            .json(400, #"{"error":"authorization_pending"}"#),
            .json(400, #"{"error":"slow_down"}"#),
            .json(200, #"{"access_token":"at","token_type":"Bearer","expires_in":3600}"#),
        ])
        let device = try await AuthorizationServerClient(transport: transport, clock: clock.wallClock)
            .startDeviceAuthorization(at: server, as: Client(id: "tv-app"), scopes: ["email"])
        let waits = Waits(clock)
        let sentWhenReported = Recorder<Int>()
        let report: @Sendable (DeviceSignInProgress) async -> Void = { _ in
            await MainActor.run {}  // as a UI update would
            sentWhenReported.record(await transport.requests.count)
        }
        _ = try await AuthorizationServerClient(transport: transport, clock: waits.wallClock).waitForApproval(
            of: device, progress: report)
        // Before the first poll, after the first, after the second (slow_down, then its wait).
        #expect(sentWhenReported.all == [1, 2, 3, 3])
    }

    @Test("Stops with a typed error when the user denies or the code expires")
    func stops() async throws {
        let clock = TestClock(Fixtures.epoch)
        let denied = RecordingTransport(replies: [start, .json(400, #"{"error":"access_denied"}"#)])
        let device = try await AuthorizationServerClient(transport: denied, clock: clock.wallClock)
            .startDeviceAuthorization(at: server, as: Fixtures.publicClient, scopes: [])
        let waits = Waits(clock)
        let error = await #expect(throws: OAuthError.self) {
            try await AuthorizationServerClient(transport: denied, clock: waits.wallClock).waitForApproval(of: device)
        }
        #expect(error?.code == .accessDenied)

        let pending = RecordingTransport(
            replies: Array(repeating: .json(400, #"{"error":"authorization_pending"}"#), count: 20)
        )
        let expired = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: pending, clock: waits.wallClock).waitForApproval(of: device)
        }
        #expect(expired?.kind == .timedOut)
        #expect(await pending.requests.count < 20, "polling stops at expires_in")
    }

    @Test("A server without a device endpoint and a response without a user code are clear errors")
    func badConfiguration() async throws {
        let missing = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: RecordingTransport()).startDeviceAuthorization(
                at: Fixtures.server, as: Fixtures.publicClient, scopes: [])
        }
        #expect(missing?.kind == .invalidConfiguration)
        let incomplete = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(
                transport: RecordingTransport(replies: [.json(200, #"{"device_code":"d","expires_in":60}"#)])
            ).startDeviceAuthorization(at: server, as: Fixtures.publicClient, scopes: [])
        }
        #expect(incomplete?.kind == .invalidResponse)
    }

    @Test("A verification address that is not https, or a user code with control characters, is refused")
    func refusesUnsafeVerification() async throws {
        let cases: [(String, BearerError.Kind)] = [
            (
                #"{"device_code":"d","user_code":"AB","verification_uri":"http://auth.example.com/device","expires_in":60}"#,
                .insecureEndpoint
            ),
            (
                #"{"device_code":"d","user_code":"AB","verification_uri":"javascript:alert(1)","expires_in":60}"#,
                .insecureEndpoint
            ),
            (
                #"{"device_code":"d","user_code":"AB","verification_uri":"https://auth.example.com/device","verification_uri_complete":"http://evil.example/x","expires_in":60}"#,
                .insecureEndpoint
            ),
            (
                #"{"device_code":"d","user_code":"AB\u001b[2J","verification_uri":"https://auth.example.com/device","expires_in":60}"#,
                .invalidResponse
            ),
        ]
        for (body, kind) in cases {
            let error = await #expect(throws: BearerError.self, "\(body)") {
                try await AuthorizationServerClient(transport: RecordingTransport(replies: [.json(200, body)]))
                    .startDeviceAuthorization(at: server, as: Fixtures.publicClient, scopes: [])
            }
            #expect(error?.kind == kind, "\(body)")
        }
    }
}
