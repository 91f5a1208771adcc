import Bearer
import BearerCommandLine
import BearerTestSupport
import Foundation
import Testing

@_spi(CommandLine) @testable import BearerCore

/// Every command that refreshes tells the environment's critical section, so `bearer-full`'s
/// signal deferral covers exactly the refresh: from its request to its save, and not the API
/// request `curl` sends afterwards.
@Suite("The tool's refreshes tell the environment's critical section")
struct RefreshCriticalSectionTests {
    private static let refreshed = RecordingTransport.Reply.json(
        200, #"{"access_token":"cli-access-2","token_type":"Bearer","expires_in":3600,"refresh_token":"cli-refresh-2"}"#
    )

    /// A fixture whose saved session's token has expired, and a recorder reading its file.
    private func expired(_ replies: [RecordingTransport.Reply]) async throws -> (
        CommandFixture, CriticalSectionRecorder
    ) {
        let fixture = CommandFixture(replies: replies)
        var state = try CommandFixture.session()
        state.accessTokenExpiresAt = Date(timeIntervalSince1970: 1_799_999_000)
        try await fixture.store.save(state, key: "default")
        let store = fixture.store
        return (fixture, CriticalSectionRecorder { try? store.loadWithoutSuspending(key: "default") })
    }

    @Test("token: entered before the refresh is sent, left once the new session is saved, before printing")
    func token() async throws {
        let (fixture, sections) = try await expired([Self.refreshed])
        defer { fixture.removeAll() }
        let (status, output) = await fixture.run(["token"], sections: sections)
        #expect(status == 0, "\(output.stderr)")
        #expect(output.stdout == "cli-access-2\n")
        #expect(sections.all == [.enter, .send("token"), .leave(stored: "cli-refresh-2", signInRequired: false)])
    }

    @Test("curl: the section ends before the API request is sent")
    func curl() async throws {
        let (fixture, sections) = try await expired([Self.refreshed, .json(200, #"{"ok":true}"#)])
        defer { fixture.removeAll() }
        let (status, output) = await fixture.run(["curl", "https://auth.example.com/items"], sections: sections)
        #expect(status == 0, "\(output.stderr)")
        #expect(
            sections.all == [
                .enter, .send("token"), .leave(stored: "cli-refresh-2", signInRequired: false), .send("items"),
            ])
    }

    @Test("A fresh token enters no section")
    func freshToken() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        try await fixture.store.save(try CommandFixture.session(), key: "default")
        let sections = CriticalSectionRecorder()
        let (status, _) = await fixture.run(["token"], sections: sections)
        #expect(status == 0)
        #expect(sections.all.isEmpty)
    }

    @Test("A refused refresh leaves the section with the session marked, and exits 77")
    func refused() async throws {
        let (fixture, sections) = try await expired([.json(400, #"{"error":"invalid_grant"}"#)])
        defer { fixture.removeAll() }
        let (status, _) = await fixture.run(["token"], sections: sections)
        #expect(status == 77)
        #expect(sections.all == [.enter, .send("token"), .leave(stored: "cli-refresh-token", signInRequired: true)])
    }
}
