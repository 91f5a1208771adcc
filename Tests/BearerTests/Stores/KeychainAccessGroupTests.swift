import Bearer
import Testing

@_spi(Bridge) @testable import BearerCore

@Suite("Which access group a keychain store's queries name, decided without the Security framework")
struct KeychainAccessGroupTests {
    /// A probe that answers from a script and counts its calls.
    final class Probe: @unchecked Sendable {
        var answers: [Result<String?, BearerError>]
        var calls = 0

        init(_ answers: [Result<String?, BearerError>]) { self.answers = answers }

        func callAsFunction() throws -> String? {
            calls += 1
            return try answers.removeFirst().get()
        }
    }

    @Test("A configured group is named as it is, and the keychain is not probed")
    func configuredGroupIsUsed() throws {
        let groups = KeychainAccessGroup()
        let probe = Probe([])
        #expect(try groups.resolve(configured: "TEAM.shared", probe: probe.callAsFunction) == "TEAM.shared")
        #expect(probe.calls == 0)
    }

    @Test("A store without a group keeps to the app's default group, found once per process")
    func defaultGroupIsFoundOnce() throws {
        let groups = KeychainAccessGroup()
        let probe = Probe([.success("TEAM.com.example.app")])
        #expect(try groups.resolve(configured: nil, probe: probe.callAsFunction) == "TEAM.com.example.app")
        #expect(try groups.resolve(configured: nil, probe: probe.callAsFunction) == "TEAM.com.example.app")
        #expect(probe.calls == 1)
        #expect(try groups.resolve(configured: "TEAM.shared", probe: probe.callAsFunction) == "TEAM.shared")
    }

    @Test("A keychain that names no group is an error, never a query across every group; the next call asks again")
    func noGroupIsRefused() throws {
        let groups = KeychainAccessGroup()
        let probe = Probe([.success(nil), .success(""), .success("TEAM.com.example.app")])
        let error = try #require(throws: BearerError.self) {
            try groups.resolve(configured: nil, probe: probe.callAsFunction)
        }
        #expect(error.kind == .storageFailure)
        #expect(error.reason.contains("accessGroup"))
        #expect(throws: BearerError.self) { try groups.resolve(configured: nil, probe: probe.callAsFunction) }
        #expect(try groups.resolve(configured: nil, probe: probe.callAsFunction) == "TEAM.com.example.app")
        #expect(probe.calls == 3)
    }

    @Test("A failed probe (no entitlement) is reported as the keychain said, and not remembered")
    func probeFailureIsReported() throws {
        let groups = KeychainAccessGroup()
        let missing = KeychainItemRules.failure(
            "find the app's access group for", key: "probe", status: KeychainItemRules.Status.missingEntitlement,
            message: nil)
        let probe = Probe([.failure(missing), .success("TEAM.com.example.app")])
        let error = try #require(throws: BearerError.self) {
            try groups.resolve(configured: nil, probe: probe.callAsFunction)
        }
        #expect(error.kind == .invalidConfiguration)
        #expect(try groups.resolve(configured: nil, probe: probe.callAsFunction) == "TEAM.com.example.app")
    }
}
