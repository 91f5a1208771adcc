@_spi(Internals) import BearerCore
import CLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waiting for the server's answer without ever blocking in libpq: the statement is sent on a
/// non-blocking connection, and the socket is polled in slices of at most 100 ms, so that a
/// server or network that stops answering ends the wait at the connection's deadline, and a
/// cancelled caller ends it at once. Either way the connection is given up (closing it is the one
/// way to stop a statement the server may never have received).
extension PostgresConnection {
    /// Sends what libpq still holds, then reads the answer; returns the first result of the
    /// statement (`nil` when libpq produced none) after draining the rest.
    ///
    /// - Throws: ``PostgresSessionStoreError/Kind/connectionLost`` when the socket broke or the
    ///   deadline passed, `CancellationError` when the caller was cancelled.
    func awaitResult() throws -> OpaquePointer? {
        while true {
            let flushed = PQflush(handle)
            if flushed == 0 { break }
            guard flushed == 1 else { throw failure(sqlState: nil, message: String(cString: PQerrorMessage(handle))) }
            try waitForSocket(events: Int16(POLLIN | POLLOUT))
            // Input that arrived while sending is read, as libpq requires before flushing again.
            guard PQconsumeInput(handle) == 1 else {
                throw failure(sqlState: nil, message: String(cString: PQerrorMessage(handle)))
            }
        }
        var first: OpaquePointer?
        while true {
            while PQisBusy(handle) != 0 {
                do {
                    try waitForSocket(events: Int16(POLLIN))
                } catch {
                    if let first { PQclear(first) }
                    throw error
                }
                guard PQconsumeInput(handle) == 1 else {
                    if let first { PQclear(first) }
                    throw failure(sqlState: nil, message: String(cString: PQerrorMessage(handle)))
                }
            }
            guard let next = PQgetResult(handle) else { return first }
            if first == nil { first = next } else { PQclear(next) }
        }
    }

    /// Waits until the socket is ready for `events`, checking the deadline and the caller's
    /// cancellation at least ten times a second.
    private func waitForSocket(events: Int16) throws {
        let socket = PQsocket(handle)
        guard socket >= 0 else {
            throw failure(sqlState: nil, message: "the connection has no socket")
        }
        while true {
            if cancellation?.isCancelled == true {
                isEnding = true
                throw CancellationError()
            }
            var slice: Duration = .milliseconds(100)
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else {
                    isEnding = true
                    didTimeOut = true
                    throw PostgresSessionStoreError.connectionLost(
                        "PostgreSQL did not answer in time (a statement may take \(settings.statementTimeoutMilliseconds) ms, "
                            + "and a wait for a lock the lock timeout in all); "
                            + "the connection was closed. Try again.")
                }
                slice = min(slice, left)
            }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let (seconds, attoseconds) = slice.components
            let milliseconds = Int32(max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR {
                throw failure(sqlState: nil, message: "polling the connection's socket failed (errno \(errno))")
            }
        }
    }
}

/// Whether the task that submitted a connection's job was cancelled: set from the task's
/// cancellation handler, read by the connection's thread.
final class CancellationFlag: @unchecked Sendable {
    // Unchecked: `cancelled` is touched only while holding `lock`.
    private let lock = Lock()
    private var cancelled = false

    /// Marks the job's task as cancelled.
    func cancel() { lock.withLock { cancelled = true } }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { lock.withLock { cancelled } }
}
