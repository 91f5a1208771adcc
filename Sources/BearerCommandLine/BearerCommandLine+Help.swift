extension BearerCommandLine {
    /// The text of `bearer --help`: every command's summary, then what they share.
    static var help: String {
        let width = (commands.map { $0.spec.name.count }.max() ?? 0) + 2
        let list = commands.map { command in
            let name = command.spec.name
            return "  " + name + String(repeating: " ", count: width - name.count) + command.summary
        }
        return """
            bearer — OAuth 2.0 sessions for the terminal: sign in once, then print tokens or call APIs.

            usage: bearer <command> [options]

            Commands:
            \(list.joined(separator: "\n"))

            Every command takes --profile NAME (default: default); those that use an account take
            --account ACCOUNT (else $BEARER_ACCOUNT, else a .bearer-account rule file, else the
            profile's default account; see bearer help accounts). Sessions live in $BEARER_CONFIG_DIR, else $XDG_CONFIG_HOME/bearer,
            else ~/.config/bearer, one private file per account; a folder that another user owns or
            that others can write is refused. $BEARER_HTTP_TIMEOUT sets how
            many seconds a request may wait for the server (30). $BEARER_CLIENT_SECRET gives a client
            secret without putting it on the command line.

            Exit codes:
              0   success
              1   any other failure
              22  curl got an HTTP error status (the body still goes to stdout)
              64  usage error
              65  bad input data (unreadable legacy file, corrupt session)
              69  server unreachable or failing; try again later
              74  the output could not be written (a full disk; a closed pipe is no error)
              77  sign-in needed: run bearer login

            Run `bearer help COMMAND` for a command's options, and `bearer --version` for the version.
            """
    }
}
