import Bearer
import Foundation

/// Values legacy sessions imply but do not store.
enum LegacyDefaults {
    /// The redirect URI of sessions that never recorded one: the out-of-band URI installed apps used.
    static let outOfBandRedirect: URL = {
        guard let url = URL(string: "urn:ietf:wg:oauth:2.0:oob") else { preconditionFailure("invalid literal") }
        return url
    }()
}
