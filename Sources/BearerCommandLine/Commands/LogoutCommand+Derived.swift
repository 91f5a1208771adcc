import Bearer
@_spi(CommandLine) @_spi(Internals) import BearerCore
import Foundation

extension LogoutCommand {
    /// Disconnects the profiles whose sessions were derived from the session under `key`
    /// (`bearer login RESOURCE-URL --via`), once that session is signed out: they cannot be made
    /// again without it, and their grants are revoked rather than left valid. A profile whose
    /// session cannot be read is left as it is.
    static func disconnectDerivedProfiles(
        of key: String, _ profile: Profile, _ environment: CommandEnvironment
    ) async throws {
        let store = profile.store
        for candidate in try await store.keys() where candidate != key && !candidate.contains("+derived-") {
            guard let stored = try? store.loadWithoutSuspending(key: candidate), stored.derivation?.parentKey == key,
                let derived = try await AuthSession.restore(
                    key: candidate, from: store, transport: environment.transport, clock: environment.clock)
            else { continue }
            let outcome = try await derived.disconnect()
            let revoked = outcome == .revoked ? "its grant revoked" : "its grant could not be revoked"
            environment.console.say(
                "Signed out of profile \(candidate) too, whose session was derived from this one (\(revoked)).")
        }
    }
}
