import Bearer
// One of the processes of the derived-session contention test: restores a derived session from a
// FileSessionStore, says it is ready, waits for the go file so that every process holds the stale
// session at once, then asks for a token. The parent is restored with the client key in the key
// file (a private_key_jwt client's). Prints "ok <fingerprint> <exchanges> <refreshes>": the
// token's fingerprint (never the token) and how many token exchanges and refreshes this process
// sent; or the error.
//
//   BearerSessionProbe --derived <folder> <key> <offset> <client key record file> <ready file> <go file>
@_spi(Internals) @_spi(Testing) import BearerCore
import Foundation

enum DerivedProbe {
    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 6, let offset = TimeInterval(arguments[2]) else {
            print("usage: BearerSessionProbe --derived <folder> <key> <offset> <key file> <ready> <go>")
            return 64
        }
        let store = FileSessionStore(directory: URL(fileURLWithPath: arguments[0], isDirectory: true))
        let clock = WallClock { Date().addingTimeInterval(offset) }
        let transport = CountingTransport()
        do {
            let record = try JSONDecoder().decode(
                DPoPKeyRecord.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[3])))
            var configuration = AuthSession.Configuration()
            configuration.clientKeys = StaticClientKey(try PlatformDPoPKeys().key(for: record))
            configuration.clientAssertionAudience = .endpoint
            guard
                let session = try await AuthSession.restore(
                    key: arguments[1], from: store, transport: transport, clock: clock, configuration: configuration)
            else {
                print("error: no session")
                return 1
            }
            if let failure = try await SharedItemsProbe.readyThenWait(ready: arguments[4], go: arguments[5]) {
                print("error: \(failure)")
                return 1
            }
            let token = try await session.validAccessToken()
            let (exchanges, refreshes) = await transport.counts()
            print("ok \(SharedItemsProbe.fingerprint(token.value)) \(exchanges) \(refreshes)")
            return 0
        } catch {
            print("error: \(error)")
            return 1
        }
    }
}

/// Sends with a URLSessionTransport and counts the token exchanges and refreshes sent.
actor CountingTransport: HTTPTransport {
    private let transport = URLSessionTransport()
    private var exchanges = 0
    private var refreshes = 0

    nonisolated func send(_ request: TransportRequest) async throws -> TransportResponse {
        await note(request)
        return try await transport.send(request)
    }

    private func note(_ request: TransportRequest) {
        let fields = String(decoding: request.body ?? Data(), as: UTF8.self).lowercased().split(separator: "&")
        if fields.contains("grant_type=urn%3aietf%3aparams%3aoauth%3agrant-type%3atoken-exchange") { exchanges += 1 }
        if fields.contains("grant_type=refresh_token") { refreshes += 1 }
    }

    func counts() -> (Int, Int) { (exchanges, refreshes) }
}
