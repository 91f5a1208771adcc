// What the tool needs without the network (arguments, output, profiles, `status`, the fast path)
// lives in BearerCommandLineCore, so the `bearer` executable can answer `token` and `status`
// without loading a networking library. `import BearerCommandLine` brings it along.
@_exported public import BearerCommandLineCore
