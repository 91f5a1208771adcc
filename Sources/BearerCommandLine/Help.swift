/// The text of `bearer --help` and `bearer help COMMAND`.
enum Help {
    static let general = """
        bearer — OAuth 2.0 sessions for the terminal: sign in once, then print tokens or call APIs.

        usage: bearer <command> [options]

        Commands:
          login       sign in through the browser (loopback redirect) or with --device
          token       print a fresh access token
          curl        send an authorized request; the response body goes to stdout
          status      show the user, scopes and expiry (never a token); --json for scripts
          add-scopes  ask for more scopes on the same session
          logout      revoke the grant and remove the session
          migrate     import a session saved by GTMOAuth2, GTMAppAuth, GoogleSignIn or gcloud
          export      write the session in a legacy format to stdout or a private file

        Every command takes --profile NAME (default: default). Sessions live in $BEARER_CONFIG_DIR,
        else $XDG_CONFIG_HOME/bearer, else ~/.config/bearer, one private file per profile; a folder
        that another user owns or that others can write is refused. $BEARER_HTTP_TIMEOUT sets how
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

    static let commands: [String: String] = [
        "login": """
        usage: bearer login (--issuer URL | --google) --client-id ID [--client-secret-file FILE] --scope "A B …"
                            [--profile NAME] [--port N] [--open-with CMD] [--no-open] [--device]
                            [--allow-insecure-loopback] [--timeout SECONDS] [--allow-host HOST]…

        Signs in and saves the session with its server and client settings in the profile.

        The authorization URL is printed on stderr and opened in the browser (with --open-with CMD:
        CMD runs with the URL as its last argument; otherwise xdg-open or open; --no-open only
        prints it). Bearer listens on 127.0.0.1 (port --port, or any free one) for the redirect and
        gives up after --timeout seconds (300). With --device, the device flow (RFC 8628) is used
        instead: open the printed address on any device and enter the code.

        Plain-http endpoints are refused unless they are on a loopback address and
        --allow-insecure-loopback is given (for local test servers; it is saved with the profile).

        A confidential client's secret is read from --client-secret-file FILE (its first line) or
        $BEARER_CLIENT_SECRET; --client-secret S also works but shows the secret to every local
        user in the process list.

        Tokens go only to the issuer's host (Google: *.googleapis.com) and to each --allow-host
        HOST (repeatable; *.example.com for subdomains), which is saved with the profile.
        """,
        "token": """
        usage: bearer token [--profile NAME]

        Prints a fresh access token and a newline on stdout, and nothing else, refreshing it first
        when it is about to expire.
        """,
        "curl": """
        usage: bearer curl URL [-X METHOD] [-H "Name: value"]… [-d DATA] [--profile NAME]

        Sends the request with the profile's access token, refreshing it when needed (and once more
        if the server rejects it as invalid). The response body goes to stdout. Exit 0 on a 2xx
        answer, 22 on any other status. -d sends DATA as a form body with POST unless -X says
        otherwise. Tokens are only ever sent over https (or loopback http when the profile allows it),
        and only to the profile's hosts: the issuer's (Google: *.googleapis.com) and those added
        with bearer login --allow-host HOST; any other host is refused before anything is sent.
        """,
        "status": """
        usage: bearer status [--profile NAME] [--json]

        Shows the profile, the user (email, sub), the granted scopes, the token expiry, whether a
        new sign-in is needed, the issuer, the client and the session file. Never prints a token.
        --json prints one object with the keys profile, email, sub, scopes, expires_at (RFC 3339 or
        null), sign_in_required, issuer, client_id, session_file.
        """,
        "add-scopes": """
        usage: bearer add-scopes SCOPE… [--profile NAME] [--open-with CMD] [--no-open] [--timeout SECONDS]

        Asks for more scopes on the same session (include_granted_scopes=true, login_hint = the
        user's email) through the browser, and merges the answer into the profile. Scopes already
        granted are not asked for again. --timeout limits the wait for the browser (300 s).
        """,
        "logout": """
        usage: bearer logout [--profile NAME]

        Revokes the grant at the server (RFC 7009) and removes the profile's session. When
        revocation fails, the local session is still removed, the grant may still be valid, and
        the message says where to revoke it; the exit code is then 69 if the server could not be
        reached, 1 if it refused.
        """,
        "migrate": """
        usage: bearer migrate --from gtmoauth2|gtmappauth|googlesignin|adc FILE [--profile NAME] [--force]
                              [(--issuer URL | --google) --client-id ID] [--client-secret-file FILE]
                              [--allow-insecure-loopback] [--allow-host HOST]…

        Imports a legacy session into the profile; FILE is left as it is. A profile that already
        has a session is not overwritten without --force.

          gtmoauth2     a GTMOAuth2 persistence string (either dialect); needs --issuer or --google
                        and --client-id, which the string does not record
          gtmappauth    a GTMAppAuth keyed archive (the keychain item's data); its issuer is the
                        one it names, else its ID token's iss; one that names none needs --issuer
          googlesignin  a JSON object of GoogleSignIn's keychain items: "fingerprint", the item it
                        names, optionally "<fingerprint>~~atrp" and "bundle_id"
          adc           gcloud application default credentials (authorized_user)

        GoogleSignIn items and gcloud credentials are Google's unless --issuer names another
        server. A --issuer or --client-id that differs from what FILE holds is refused (exit 64)
        rather than either being chosen. Imported sessions refresh their access token on first use.
        """,
        "export": """
        usage: bearer export --format gtmoauth2|gtmappauth [--output FILE] [--profile NAME]

        Writes the profile's session as a GTMOAuth2 persistence string or a GTMAppAuth keyed
        archive, for an app that has to go back to those libraries, to stdout or, with --output,
        to a new file of mode 0600 (written like a session file). The output holds the tokens:
        prefer --output to redirecting stdout, which creates files others can read.
        """,
    ]
}
