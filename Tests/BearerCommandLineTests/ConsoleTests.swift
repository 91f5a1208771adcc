import BearerCommandLine
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure to write stdout is reported (exit 74), so `bearer export > file` on a full disk does
/// not succeed with an empty file; a reader that went away (EPIPE) is no error.
@Suite("Writing the output: every failure but a closed pipe is reported")
struct OutputFailureTests {
    @Test("A full device is a failure with its errno; a closed pipe is reported as EPIPE, which the tool ignores")
    func writeFailures() throws {
        #if os(Linux)
            let full = open("/dev/full", O_WRONLY)
            try #require(full >= 0)
            defer { close(full) }
            #expect(Console.writeAll(Data("token\n".utf8), to: full) == ENOSPC)
        #endif
        var pipes: [Int32] = [0, 0]
        try #require(pipe(&pipes) == 0)
        close(pipes[0])
        let previous = signal(SIGPIPE, SIG_IGN)
        defer {
            signal(SIGPIPE, previous)
            close(pipes[1])
        }
        #expect(Console.writeAll(Data("token\n".utf8), to: pipes[1]) == EPIPE)
        let null = open("/dev/null", O_WRONLY)
        defer { close(null) }
        #expect(Console.writeAll(Data(repeating: 0x41, count: 100_000), to: null) == nil)
    }
}
