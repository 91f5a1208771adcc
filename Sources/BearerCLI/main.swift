// The `bearer` executable. It answers `--version`, `status` and a fresh `token` itself, linking
// no networking library, and becomes `bearer-full`, the whole tool, for everything else.
import BearerCommandLineCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// SIGPIPE ignored, and Ctrl-\ without the runtime's backtrace, which can show tokens in memory.
ToolSignals.prepare()
let arguments = Array(CommandLine.arguments.dropFirst())
if let code = FastPath.run(arguments) {
    exit(Console.finishing(code))
}
exit(FullTool.replaceProcess(arguments: arguments))
