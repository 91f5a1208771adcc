import BearerCommandLine
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A browser that hangs up must not kill the tool with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
var environment = CommandEnvironment()
// Ctrl-C, SIGTERM and SIGHUP wait while a refresh is out or unsaved, so that ending the tool
// cannot lose a refresh token the server has just rotated (see SignalDeferral).
environment.refreshCriticalSection = SignalDeferral(bound: environment.requestDeadline + SignalDeferral.saveAllowance)
exit(Console.finishing(await BearerCommandLine.run(Array(CommandLine.arguments.dropFirst()), environment: environment)))
