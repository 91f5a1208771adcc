import BearerCommandLine
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A browser that hangs up must not kill the tool with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
exit(Console.finishing(await BearerCommandLine.run(Array(CommandLine.arguments.dropFirst()))))
