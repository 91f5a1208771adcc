import Bearer
import Foundation

/// The browser part of a sign-in: how the tool shows the authorization page and what it says
/// while it waits.
enum BrowserSignIn {
    /// Prints the URL and the wait, and opens the browser unless told not to.
    ///
    /// - Parameter opening: `nil` not to open a browser; `.some(nil)` for the default opener;
    ///   `.some(cmd)` for `--open-with`.
    static func opener(opening: String??, timeout: Int, console: Console, purpose: String = "sign in")
        -> BrowserOpener
    {
        BrowserOpener { url in
            console.say("Open this URL in a browser to \(purpose):")
            console.say("  \(shown(url))")
            if let command = opening {
                try await launcher(command, console: console).open(url)
            }
            console.say(
                "Waiting up to \(timeout) s for the browser to come back to \(redirect(of: url)) "
                    + "(press Ctrl-C to cancel)…")
        }
    }

    /// Prints the URL and asks for the address the browser ends on (`--no-browser`).
    static func printer(timeout: Int, console: Console, purpose: String = "sign in") -> BrowserOpener {
        BrowserOpener { url in
            let redirect = redirect(of: url)
            console.say("Open this URL in a browser on any machine and \(purpose):")
            console.say("  \(shown(url))")
            console.say(
                "The browser then goes to \(redirect)?…, which may fail to load. Paste that whole address here "
                    + "and press Enter (or forward the port with ssh -L). Waiting up to \(timeout) s "
                    + "(press Ctrl-C to cancel)…")
        }
    }

    /// What the tool says when a pasted line is refused or an answer arrives.
    static func report(_ event: PastedRedirectAgent.Event, console: Console) {
        switch event {
        case .refused(let refusal):
            console.say("Refused: \(refusal.description) Nothing was sent to the server; paste again.")
        case .answeredAtListener:
            console.say("The browser's answer reached the listener; nothing needs pasting.")
        case .answeredByPaste:
            console.say("Received the pasted address; the listener is closed.")
        }
    }

    /// The request's `redirect_uri`, for messages.
    /// `url` as the terminal shows it: without a provider logout's `id_token_hint`, which is the
    /// session's ID token, a credential never printed. The browser the tool opens gets it; the
    /// address shown still ends the provider's session, which may then ask the user to confirm.
    static func shown(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let query = components.percentEncodedQuery, query.contains("id_token_hint=")
        else { return url.absoluteString }
        components.percentEncodedQuery = query.split(separator: "&")
            .filter { !$0.hasPrefix("id_token_hint=") }.joined(separator: "&")
        return components.url?.absoluteString ?? "(the provider's logout page)"
    }

    private static func redirect(of url: URL) -> String {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "redirect_uri" || $0.name == "post_logout_redirect_uri" }?.value
            ?? "the redirect address"
    }

    /// Opens with `command`, or the system's default opener; failures are reported, not thrown.
    static func launcher(_ command: String?, console: Console) -> BrowserOpener {
        let report: @Sendable (String) -> Void = { console.say($0 + " Open the URL above yourself.") }
        return command.map { .command($0, onFailure: report) } ?? .systemDefault(onFailure: report)
    }
}
