import Foundation

/// Opens a URL for the user: with `--open-with CMD` (the URL as its last argument), else with
/// `xdg-open` or `open`. The command runs in the background, so it may itself bring the redirect.
enum BrowserLauncher {
    static func open(_ url: URL, command: String?, console: Console) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        #if canImport(Darwin)
            let fallback = "open"
        #else
            let fallback = "xdg-open"
        #endif
        process.arguments = ["-c", (command ?? fallback) + " \"$1\"", "bearer-open", url.absoluteString]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.standardError
        process.standardError = FileHandle.standardError
        let name = command ?? fallback
        process.terminationHandler = { finished in
            if finished.terminationStatus != 0 {
                console.say(
                    "Could not open the browser with \(name) (exit \(finished.terminationStatus)); open the URL above yourself."
                )
            }
        }
        do {
            try process.run()
        } catch {
            console.say("Could not run \(name); open the URL above yourself.")
        }
    }
}
