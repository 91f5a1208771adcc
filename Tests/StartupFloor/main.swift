// The start-up floor of `scripts/bench`: the least a Swift program on FoundationEssentials (the
// part of Foundation that `bearer` itself links on Linux) does to print a stored token. It reads a
// session file, decodes its `accessToken` field (with `--fresh`, its expiry too) and prints it.
// scripts/bench builds it as `bearer` is built (release, Swift runtime linked statically) and
// compares `bearer token` and `bearer status` with it.
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct StoredToken: Decodable {
    let accessToken: String
}

/// The token and its expiry: what `bearer token` needs to know before it prints a token.
struct StoredFreshToken: Decodable {
    let accessToken: String
    let accessTokenExpiresAt: Double
}

// `startup-floor SESSION-FILE` decodes the token alone; `startup-floor --fresh SESSION-FILE` also
// decodes its expiry and prints the token only while it is fresh.
let arguments = CommandLine.arguments.dropFirst()
let checksExpiry = arguments.first == "--fresh"
guard arguments.count == (checksExpiry ? 2 : 1), let path = arguments.last,
    let data = FileManager.default.contents(atPath: path)
else {
    fatalError("usage: startup-floor [--fresh] SESSION-FILE")
}
if checksExpiry {
    guard let stored = try? JSONDecoder().decode(StoredFreshToken.self, from: data),
        stored.accessTokenExpiresAt > Date().timeIntervalSince1970
    else { fatalError("no fresh token in \(path)") }
    print(stored.accessToken)
} else {
    guard let stored = try? JSONDecoder().decode(StoredToken.self, from: data) else {
        fatalError("no token in \(path)")
    }
    print(stored.accessToken)
}
