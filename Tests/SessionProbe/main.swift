// A helper process for the end-to-end tests: restores a session from a FileSessionStore, gets a
// fresh access token (refreshing under the store's lock when needed) and calls the test server's
// protected endpoint with it. Prints "ok" or the error; never a token. With --shared-items it is
// the app or the widget of the shared-session test instead (SharedItemsProbe.swift); with
// --derived, one process of the derived-session contention test (DerivedProbe.swift).
//
//   BearerSessionProbe <store folder> <key> <clock offset seconds> <protected URL>
import Bearer
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let arguments = CommandLine.arguments
if arguments.count > 1, arguments[1] == "--derived" {
    exit(await DerivedProbe.run(Array(arguments.dropFirst(2))))
}
if arguments.count > 1, arguments[1] == "--shared-items" {
    exit(await SharedItemsProbe.run(Array(arguments.dropFirst(2))))
}
guard arguments.count == 5, let offset = TimeInterval(arguments[3]), let resource = URL(string: arguments[4]) else {
    FileHandle.standardError.write(Data("usage: BearerSessionProbe <folder> <key> <offset> <url>\n".utf8))
    exit(64)
}
let store = FileSessionStore(directory: URL(fileURLWithPath: arguments[1], isDirectory: true))
let clock = WallClock { Date().addingTimeInterval(offset) }
do {
    guard
        let session = try await AuthSession.restore(
            key: arguments[2],
            from: store,
            clock: clock
        )
    else {
        print("error: no session")
        exit(1)
    }
    let (_, response) = try await session.data(for: URLRequest(url: resource))
    guard response.statusCode == 200 else {
        print("error: HTTP \(response.statusCode)")
        exit(1)
    }
    print("ok")
} catch {
    print("error: \(error)")
    exit(1)
}
