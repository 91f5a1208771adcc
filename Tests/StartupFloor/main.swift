// The start-up floor of `scripts/bench`: the least a Swift program that uses Foundation does to
// print a stored token. It reads a session file, decodes its one `accessToken` field and prints
// it. scripts/bench builds it as `bearer` is built (release, Swift runtime linked statically)
// and compares `bearer token` and `bearer status` with it.
import Foundation

struct StoredToken: Decodable {
    let accessToken: String
}

guard CommandLine.arguments.count == 2,
    let data = FileManager.default.contents(atPath: CommandLine.arguments[1]),
    let stored = try? JSONDecoder().decode(StoredToken.self, from: data)
else {
    exit(1)
}
print(stored.accessToken)
