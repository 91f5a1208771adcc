import Foundation

let usage = """
    usage: bearer <command> [options]

    Commands:
      login       sign in from a terminal (loopback redirect or device flow)
      token       print a fresh access token
      curl        send an authorized request and print the response body
      status      show the signed-in user, scopes and expiry (never a token)
      add-scopes  ask for more scopes on the same session
      logout      revoke and remove a session
      migrate     import a session saved by GTMOAuth2, GTMAppAuth, GoogleSignIn or gcloud
      export      write a session in a legacy format

    The commands are not available in this build yet; the Bearer library is.

    """

let arguments = CommandLine.arguments.dropFirst()
if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") {
    FileHandle.standardOutput.write(Data(usage.utf8))
    exit(arguments.isEmpty ? 64 : 0)
}
let message = "bearer: '\(arguments.first ?? "")' is not available in this build yet.\n\n" + usage
FileHandle.standardError.write(Data(message.utf8))
exit(64)
