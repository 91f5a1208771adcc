import BearerCommandLine
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// SIGPIPE ignored, and Ctrl-\ without the runtime's backtrace, which can show tokens in memory.
ToolSignals.prepare()
var environment = CommandEnvironment()
// Ctrl-C, SIGTERM, SIGHUP and SIGQUIT wait while a refresh is out or unsaved, so that ending the
// tool cannot lose a refresh token the server has just rotated (see SignalDeferral).
environment.refreshCriticalSection = SignalDeferral(bound: environment.requestDeadline + SignalDeferral.saveAllowance)
exit(Console.finishing(await BearerCommandLine.run(Array(CommandLine.arguments.dropFirst()), environment: environment)))
