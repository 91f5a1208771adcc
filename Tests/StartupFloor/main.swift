// The start-up floor of `scripts/bench`: the least a Swift program on FoundationEssentials (the
// part of Foundation that `bearer` itself links on Linux) does to print a stored token. It reads a
// session file, decodes its `accessToken` field and prints it. scripts/bench builds it as `bearer`
// is built (release, Swift runtime linked statically) and compares `bearer token` and
// `bearer status` with it.
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct StoredToken: Decodable {
    let accessToken: String
}

guard CommandLine.arguments.count == 2,
    let data = FileManager.default.contents(atPath: CommandLine.arguments[1]),
    let stored = try? JSONDecoder().decode(StoredToken.self, from: data)
else {
    fatalError("usage: startup-floor SESSION-FILE")
}
print(stored.accessToken)
