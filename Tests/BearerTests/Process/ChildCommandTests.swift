import Bearer
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `--open-with` command and the browser it starts inherit neither the tool's ignored
/// signals nor its client secret.
@Suite("A browser command starts with default signals and without the client secret")
struct ChildCommandTests {
    #if os(Linux)
        // The tests share one process with suites that start the tool, so this one changes no
        // state a concurrent child could inherit: it ignores only SIGPIPE (harmless to any child)
        // and checks the secret through the environment the child is given.
        @Test("A child gets this process's environment without BEARER_CLIENT_SECRET")
        func childEnvironment() {
            let parent = ["BEARER_CLIENT_SECRET": "child-must-not-see-this", "HOME": "/home/someone", "LANG": "C"]
            #expect(ChildCommand.environment(parent) == ["HOME": "/home/someone", "LANG": "C"])
        }

        @Test("SIGPIPE ignored here is not ignored in the child, and no signal is ignored or blocked there")
        func childState() async throws {
            let previousPipe = signal(SIGPIPE, SIG_IGN)
            defer { signal(SIGPIPE, previousPipe) }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "bearer-child-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            let script =
                "{ grep -E '^Sig(Ign|Blk):' /proc/self/status; echo \"secret=${BEARER_CLIENT_SECRET:-}\"; } "
                + "> '\(file.path).part' && mv '\(file.path).part' '\(file.path)'; :"
            try await BrowserOpener.command(script).open(try #require(URL(string: "https://auth.example.com/a")))
            var text: String?
            for _ in 0..<100_000 where text == nil {
                text = try? String(contentsOf: file, encoding: .utf8)
                await Task.yield()
            }
            let report = try #require(text)
            let masks = Dictionary(
                uniqueKeysWithValues: report.split(separator: "\n").compactMap { line -> (String, UInt64)? in
                    let parts = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2, let value = UInt64(parts[1], radix: 16) else { return nil }
                    return (parts[0], value)
                })
            let ignored = try #require(masks["SigIgn"])
            let blocked = try #require(masks["SigBlk"])
            for number in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] {
                #expect(ignored & (1 << UInt64(number - 1)) == 0, "signal \(number) ignored")
                #expect(blocked & (1 << UInt64(number - 1)) == 0, "signal \(number) blocked")
            }
            #expect(report.contains("secret=\n"))
        }
    #endif
}
