import Bearer
import Foundation
import Testing

/// The byte-exact legacy items in Fixtures/ (written by Fixtures/make_fixtures.py).
enum Fixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try data(name), as: UTF8.self)
    }

    static let googleClientID = "223520599684-kg64hfn0h950oureqacja2fltg00msv3.apps.googleusercontent.com"
    static let googleRedirect =
        "com.googleusercontent.apps.223520599684-kg64hfn0h950oureqacja2fltg00msv3:/oauth2callback"

    static func googleClient() throws -> Client {
        Client(id: googleClientID, redirectURI: try #require(URL(string: googleRedirect)) as URL)
    }
}
