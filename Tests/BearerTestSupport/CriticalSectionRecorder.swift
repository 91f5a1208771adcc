package import Bearer
@_spi(Testing) import BearerCore
import Foundation

/// A ``RefreshCriticalSection`` that records, in order with the requests a wrapped transport
/// sends, each time a session enters and leaves it, and what the store held when it left.
package final class CriticalSectionRecorder: RefreshCriticalSection, @unchecked Sendable {
    // Unchecked: everything mutable is in `events`, a Recorder, which locks.

    /// What happened, in order.
    package enum Event: Sendable, Equatable {
        /// The session entered the section.
        case enter
        /// The transport sent a request to a URL whose path ends with this component.
        case send(String)
        /// The session left the section; the stored refresh token at that moment, and whether the
        /// stored session was marked as needing a sign-in.
        case leave(stored: String?, signInRequired: Bool)
    }

    private let events = Recorder<Event>()
    private let stored: @Sendable () -> AuthState?

    /// Creates a recorder.
    ///
    /// - Parameter stored: Reads the stored session without suspending, when the section is left.
    package init(stored: @escaping @Sendable () -> AuthState? = { nil }) {
        self.stored = stored
    }

    /// Everything recorded so far.
    package var all: [Event] { events.all }

    package func enter() {
        events.record(.enter)
    }

    package func leave() {
        let state = stored()
        events.record(.leave(stored: state?.refreshToken?.value, signInRequired: state?.signInRequiredError != nil))
    }

    /// A transport that records each request here before `base` sends it.
    package func recording(_ base: any HTTPTransport) -> any HTTPTransport {
        RecordedTransport(base: base, events: events)
    }

    private struct RecordedTransport: HTTPTransport {
        let base: any HTTPTransport
        let events: Recorder<Event>

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            events.record(.send(request.url.lastPathComponent))
            return try await base.send(request)
        }
    }
}
