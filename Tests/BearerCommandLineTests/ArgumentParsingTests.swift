import BearerCommandLine
import Testing

@Suite("The bearer tool's argument parsing")
struct ArgumentParsingTests {
    @Test("Options with values, = values, repeated headers, short names and --")
    func parsesOptions() throws {
        let (command, parsed) = try BearerCommandLine.parse([
            "curl", "-X", "patch", "-H", "A: 1", "--header=B: 2", "--profile", "work", "--", "--not-a-flag",
        ])
        #expect(command == "curl")
        #expect(parsed.value("request") == "patch")
        #expect(parsed.values["header"] == ["A: 1", "B: 2"])
        #expect(parsed.value("profile") == "work")
        #expect(parsed.positionals == ["--not-a-flag"])
    }

    @Test("Flags and positional arguments of login, add-scopes and migrate")
    func flagsAndPositionals() throws {
        let login = try BearerCommandLine.parse(["login", "--google", "--device", "--client-id", "x", "--scope", "a b"])
            .arguments
        #expect(login.has("google") && login.has("device"))
        #expect(login.value("scope") == "a b")
        let add = try BearerCommandLine.parse(["add-scopes", "a", "b", "--no-open"]).arguments
        #expect(add.positionals == ["a", "b"])
        let migrate = try BearerCommandLine.parse([
            "migrate", "--from", "adc", "file.json", "--force", "--allow-insecure-loopback",
        ])
        .arguments
        #expect(migrate.positionals == ["file.json"] && migrate.has("force") && migrate.has("allow-insecure-loopback"))
    }

    @Test(
        "Unknown options, missing values, repeated single options and wrong counts are usage errors",
        arguments: [
            ["token", "--json"], ["status", "--profile"], ["login", "--scope", "a", "--scope", "b"], ["curl"],
            ["curl", "a", "b"], ["token", "extra"], ["curl", "-Z", "x"], ["status", "--json=1"], ["add-scopes"], [],
            ["launch"],
        ])
    func usageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { try BearerCommandLine.parse(arguments) }
    }

    @Test("--help is accepted by every command whatever else is missing")
    func helpFlag() throws {
        for command in ["login", "token", "curl", "status", "add-scopes", "logout", "migrate", "export"] {
            #expect(try BearerCommandLine.parse([command, "--help"]).arguments.has("help"))
            #expect(try BearerCommandLine.parse([command, "-h"]).arguments.has("help"))
        }
    }
}
