import BearerCommandLine
import Foundation
import Testing

@Suite("Where the tool finds its variables and its config folder")
struct LocalEnvironmentTests {
    @Test("The process's variables are read by name; a fixed set answers only from itself")
    func variables() {
        let path = EnvironmentVariables.process["PATH"]
        #expect(path != nil && path == ProcessInfo.processInfo.environment["PATH"])
        #expect(EnvironmentVariables.process["BEARER_TEST_VARIABLE_THAT_IS_NEVER_SET"] == nil)
        let fixed = EnvironmentVariables(["HOME": "/home/a"])
        #expect(fixed["HOME"] == "/home/a" && fixed["PATH"] == nil)
    }

    @Test(
        "The config folder: BEARER_CONFIG_DIR, else XDG_CONFIG_HOME/bearer, else HOME/.config/bearer",
        arguments: [
            (["BEARER_CONFIG_DIR": "/etc/b", "XDG_CONFIG_HOME": "/x", "HOME": "/h"], "/etc/b"),
            (["BEARER_CONFIG_DIR": "", "XDG_CONFIG_HOME": "/x/", "HOME": "/h"], "/x/bearer"),
            (["HOME": "/h"], "/h/.config/bearer"),
        ])
    func configFolder(variables: [String: String], expected: String) {
        let environment = LocalEnvironment(variables: variables)
        #expect(environment.configDirectoryPath == expected)
        #expect(environment.configDirectory.path == expected)
        #expect(environment.store.directory.path == expected)
    }

    @Test("An empty HOME is not the current folder: the user's home folder is used")
    func emptyHome() {
        let environment = LocalEnvironment(variables: ["HOME": ""])
        #expect(environment.configDirectoryPath.hasSuffix("/.config/bearer"))
        #expect(environment.configDirectoryPath.hasPrefix("/"))
    }
}
