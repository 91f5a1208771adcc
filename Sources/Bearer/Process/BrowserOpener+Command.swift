import Foundation

#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD)
    extension BrowserOpener {
        /// The user's default browser through `open` (macOS) or `xdg-open` (Linux).
        ///
        /// - Parameter onFailure: Told, in a sentence, when the command cannot run or fails.
        /// - Returns: The opener.
        public static func systemDefault(onFailure: @escaping @Sendable (String) -> Void = { _ in }) -> BrowserOpener {
            #if os(macOS)
                return command("open", onFailure: onFailure)
            #else
                return command("xdg-open", onFailure: onFailure)
            #endif
        }

        /// Runs a shell command with the URL as its last argument (`sh -c 'COMMAND "$1"'`), in the
        /// background: it may itself bring the redirect, so the opener does not wait for it. The
        /// command starts with every signal at its default disposition and unblocked, and without
        /// `BEARER_CLIENT_SECRET` in its environment.
        ///
        /// - Parameters:
        ///   - command: The command, such as `firefox --new-window`.
        ///   - onFailure: Told, in a sentence, when the command cannot run or exits non-zero.
        /// - Returns: The opener.
        public static func command(
            _ command: String,
            onFailure: @escaping @Sendable (String) -> Void = { _ in }
        ) -> BrowserOpener {
            BrowserOpener { url in
                let started = ChildCommand.start(
                    script: command + " \"$1\"", name: "bearer-open", arguments: [url.absoluteString]
                ) { status in
                    if status != 0 { onFailure("Could not open the browser with \(command) (exit \(status)).") }
                }
                if !started { onFailure("Could not run \(command).") }
            }
        }
    }
#endif
