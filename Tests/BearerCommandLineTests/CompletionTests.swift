import BearerCommandLine
import BearerTestSupport
import Foundation
import Testing

@Suite("Shell completions know every command and option the help lists")
struct CompletionTests {
    private static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/completions")

    /// The text `bearer arguments…` prints on stdout.
    private func help(_ arguments: [String]) async -> String {
        let capture = Capture()
        let environment = CommandEnvironment(variables: [:], console: capture.console, transport: RecordingTransport())
        _ = await BearerCommandLine.run(arguments, environment: environment)
        return capture.stdout
    }

    /// The commands `bearer --help` lists.
    private func commands() async -> [String] {
        let lines = await help(["--help"]).split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "Commands:") else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
    }

    /// The long options in the usage lines of `bearer help command`.
    private func options(of command: String) async -> Set<String> {
        let usage = await help(["help", command]).split(separator: "\n\n").first.map(String.init) ?? ""
        var names: Set<String> = []
        for word in usage.split(whereSeparator: { !($0.isLetter || $0 == "-") }) where word.hasPrefix("--") {
            names.insert(String(word.dropFirst(2)))
        }
        return names
    }

    @Test("The help lists the commands the completions are written for")
    func helpIsReadable() async {
        #expect(await commands().count == 11)
        #expect(await options(of: "login").contains("client-id"))
    }

    @Test(
        "Each completion file offers every command and every long option",
        arguments: [("bearer.bash", "--"), ("_bearer", "--"), ("bearer.fish", "-l ")]
    )
    func completionsAgreeWithHelp(file: String, longPrefix: String) async throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
        #expect(text.contains(longPrefix + "version") && text.contains(longPrefix + "help"))
        for command in await commands() {
            #expect(text.contains(command), "\(file) lacks the command \(command)")
            for option in await options(of: command) {
                #expect(text.contains(longPrefix + option), "\(file) lacks \(command) --\(option)")
            }
        }
    }
}
