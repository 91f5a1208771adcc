import Bearer
import BearerCommandLineCore
@_spi(CommandLine) @_spi(Internals) import BearerCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Holds back SIGINT, SIGTERM, SIGHUP and SIGQUIT while a refresh is out or unsaved, then ends the
/// process by the signal that came, as its default action would: the parent sees the process
/// killed by that signal (a shell reports status 128 + N). Outside a refresh the process keeps the
/// dispositions it started with, so a signal ends it at once, and an ignored one (`nohup`'s
/// SIGHUP, a script's background job's SIGINT) stays ignored, during a refresh too. What is decided
/// when is ``StateMachine``'s; this class only installs and acts.
///
/// SIGQUIT is held too: its default disposition in a Swift program is the runtime's backtracer,
/// which prints registers and the memory they point at, and during a refresh that memory can hold
/// tokens. Held, it ends the process with the kernel's default action instead (a core dump where
/// the system allows one, and nothing on standard error).
///
/// How, and why this way:
///
/// - A process-wide handler, installed when the first refresh is about to be sent and replaced by
///   the previous disposition when the last open refresh is saved, that only writes the signal's
///   number to a pipe (`write` is async-signal-safe; a lock is not). A thread
///   of its own reads the pipe and asks the machine, under a lock, whether to end the process now
///   or hold the signal; the thread also ends it when a held signal's bound runs out.
/// - Not a signal mask. A signal blocked in one thread is delivered to any thread that does not
///   block it, so a mask would have to be set in every thread before it is created, including
///   the threads of Swift's concurrency runtime, Dispatch and `URLSession`; and a mask is
///   inherited by every child process, while a handler is reset to the default by `exec`. The
///   tool's children therefore start with default dispositions and an empty mask, as before
///   (`ChildCommand` also resets both explicitly).
/// - Dispatch's worker threads block these signals, and a thread inherits the mask of the one
///   that started it, so the pipe's reader unblocks them for itself: some thread always accepts
///   them. The thread that ends the process unblocks the signal it raises, and restores the
///   default disposition first.
/// - Counting sections, not a flag: two sessions could refresh at once. While a signal is held,
///   or the process is ending, a new section does not start (its refresh would be cut off): the
///   caller waits for the end.
/// - The handler is installed with `SA_RESTART`, so a system call it interrupts in another thread
///   resumes; file reads and writes here retry on `EINTR` anyway.
///
/// One per process (the handler is process-wide).
package final class SignalDeferral: RefreshCriticalSection, @unchecked Sendable {
    // Unchecked: `machine`, `reader` and `replaced` are only touched under `lock`; the rest never
    // changes.

    /// The signals held back: Ctrl-C, `kill`'s and `timeout`'s default, a closed terminal, and
    /// Ctrl-\ (whose backtrace could show tokens in memory).
    package static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// How long a save may take after the request's deadline before a held signal ends the
    /// process anyway.
    package static let saveAllowance: Duration = .seconds(5)

    private let signals: [Int32]
    private let console: Console
    private let lock = Lock()
    private var machine: StateMachine
    /// Whether the pipe and its reading thread are up (they stay up once started).
    private var reader = false
    /// The dispositions the handler replaced, to put back when the last section is left.
    private var replaced: [(signal: Int32, previous: sigaction)] = []

    /// Creates a deferral; nothing is installed until the first section is entered.
    ///
    /// - Parameters:
    ///   - bound: The longest a held signal waits, from the moment the first open section was
    ///     entered: the request's deadline plus ``saveAllowance``.
    ///   - signals: The signals to hold back.
    ///   - console: Where to say that a signal is held.
    package init(bound: Duration, signals: [Int32] = terminationSignals, console: Console = .standard) {
        self.machine = StateMachine(bound: bound)
        self.signals = signals
        self.console = console
    }

    /// The signal held, or the one the process is ending by.
    package var heldSignal: Int32? {
        lock.withLock { machine.signal }
    }

    /// A refresh is about to be sent: from now until ``leave()``, the signals wait.
    package func enter() {
        let action = lock.withLock { () -> StateMachine.EnterAction in
            let action = machine.entered(at: .now)
            if action == .installAndProceed { installHandlers() }
            return action
        }
        if action == .waitForEnd {
            while true { pause() }
        }
    }

    /// The refresh's outcome is saved, or it failed: a signal held meanwhile ends the process now;
    /// after the last open refresh, the dispositions the handlers replaced are put back.
    package func leave() {
        let action = lock.withLock { () -> StateMachine.EndAction in
            let action = machine.left()
            if action == .restore { restoreHandlers() }
            return action
        }
        if case .end(let number) = action { Self.end(by: number) }
    }

    /// Installs the handler for every signal that is not ignored, remembering what it replaces;
    /// the first time, opens the pipe and starts its reader. On failure nothing is installed, and
    /// the signals keep their dispositions. Runs under `lock`.
    private func installHandlers() {
        if !reader { reader = startReader() }
        guard reader else { return }
        for number in signals {
            var previous = sigaction()
            guard sigaction(number, nil, &previous) == 0, !ToolSignals.isIgnored(previous) else { continue }
            var action = sigaction()
            #if canImport(Darwin)
                action.__sigaction_u.__sa_handler = recordSignal
            #else
                action.__sigaction_handler.sa_handler = recordSignal
            #endif
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            if sigaction(number, &action, nil) == 0 { replaced.append((number, previous)) }
        }
    }

    /// Puts back the dispositions ``installHandlers()`` replaced. Runs under `lock`.
    private func restoreHandlers() {
        for (number, previous) in replaced {
            var previous = previous
            sigaction(number, &previous, nil)
        }
        replaced = []
    }

    /// Opens the pipe and starts its reader.
    ///
    /// - Returns: Whether both are up.
    private func startReader() -> Bool {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A burst of signals must never block the handler: a full pipe drops the byte.
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        let readEnd = ends[0]
        let started = Self.installation.withLock { () -> Bool in
            precondition(signalPipe < 0, "one SignalDeferral per process")
            guard DetachedThread.start({ [self] in watch(readEnd) }) else { return false }
            signalPipe = ends[1]
            return true
        }
        if !started { for end in ends { close(end) } }
        return started
    }

    private static let installation = Lock()

    /// The pipe's reader: each signal number that arrives, and each bound that runs out, goes to
    /// the machine.
    private func watch(_ reader: Int32) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in signals { sigaddset(&mask, number) }
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        while true {
            let deadline = lock.withLock { machine.deadline }
            var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            let waited = poll(&ready, 1, deadline.map(Self.milliseconds(until:)) ?? -1)
            if waited < 0 { continue }
            if waited == 0 {
                if case .end(let number) = lock.withLock({ machine.timePassed(to: .now) }) { Self.end(by: number) }
                continue
            }
            var byte: UInt8 = 0
            let count = read(reader, &byte, 1)
            if count == 0 { return }
            if count < 0 { continue }
            switch lock.withLock({ machine.signalArrived(Int32(byte)) }) {
            case .end(let number): Self.end(by: number)
            case .hold(let until): say(Int32(byte), until: until)
            case .none: break
            }
        }
    }

    private func say(_ number: Int32, until: ContinuousClock.Instant) {
        let name =
            [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT"][number] ?? "signal \(number)"
        let seconds = max(1, Int(((until - .now) / .seconds(1)).rounded(.up)))
        console.say(
            "bearer: \(name) received; stopping once the refresh under way is saved (at most \(seconds) s more).")
    }

    /// Milliseconds from now to `deadline`, rounded up, for `poll`.
    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let milliseconds = ((deadline - .now) / .milliseconds(1)).rounded(.up)
        return Int32(max(0, min(milliseconds, Double(Int32.max))))
    }

    /// Ends the process by `number` as its default action does.
    private static func end(by number: Int32) -> Never {
        signal(number, SIG_DFL)
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, number)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        raise(number)
        // Not reached: the default action of every signal held back ends the process.
        _exit(128 + number)
    }
}

/// The write end of the pipe the handler writes to; set once, before the handler is installed.
private nonisolated(unsafe) var signalPipe: Int32 = -1

/// The handler: records the signal's number and nothing else.
private func recordSignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipe, &byte, 1)
    errno = saved
}
