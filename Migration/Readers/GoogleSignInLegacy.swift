public import Bearer
import Foundation

/// GoogleSignIn's legacy keychain layout (before it moved to GTMAppAuth): an item named
/// `fingerprint` holding `<bundleID>-<clientID>-<scopes>`, an item named by that fingerprint
/// holding a GTMOAuth2 persistence string, and an item `<fingerprint>~~atrp` with extra parameters
/// appended to that string with `&`.
public enum GoogleSignInLegacy {
    /// The name of the item that holds the fingerprint.
    public static let fingerprintItem = "fingerprint"

    /// The name of the item that holds extra parameters for `fingerprint`.
    ///
    /// - Parameter fingerprint: The fingerprint.
    /// - Returns: `<fingerprint>~~atrp`.
    public static func additionalParametersItem(for fingerprint: String) -> String {
        fingerprint + "~~atrp"
    }

    /// The client ID inside a fingerprint: what follows `<bundleID>-` up to the last `-` that
    /// comes before the scopes (`email`, `profile` or `https://…`).
    ///
    /// - Parameters:
    ///   - fingerprint: The fingerprint.
    ///   - bundleID: The app's bundle identifier.
    /// - Returns: The client ID, or `nil` when the fingerprint is not this app's.
    public static func clientID(inFingerprint fingerprint: String, bundleID: String) -> String? {
        let prefix = bundleID + "-"
        guard fingerprint.hasPrefix(prefix) else { return nil }
        let rest = fingerprint.dropFirst(prefix.count)
        var split: Substring.Index?
        var index = rest.startIndex
        while let dash = rest[index...].firstIndex(of: "-") {
            let after = rest[rest.index(after: dash)...]
            if dash > rest.startIndex,
                after.hasPrefix("email") || after.hasPrefix("profile") || after.hasPrefix("https://")
            {
                split = dash
            }
            index = rest.index(after: dash)
        }
        guard let split else { return nil }
        return String(rest[..<split])
    }

    /// The bundle ID in a fingerprint whose client ID has Google's shape
    /// (`<project number>-<id>.apps.googleusercontent.com`), for when the bundle ID is not known.
    ///
    /// - Parameter fingerprint: The fingerprint.
    /// - Returns: The bundle ID, or `nil` when no Google client ID is found.
    public static func bundleID(inFingerprint fingerprint: String) -> String? {
        guard let suffix = fingerprint.range(of: ".apps.googleusercontent.com-") else { return nil }
        let parts = fingerprint[..<suffix.lowerBound].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 3, let number = parts.dropLast().last, !number.isEmpty, number.allSatisfy(\.isNumber)
        else {
            return nil
        }
        let bundle = parts.dropLast(2).joined(separator: "-")
        return bundle.isEmpty ? nil : bundle
    }

    /// Reads a legacy GoogleSignIn session.
    ///
    /// - Parameters:
    ///   - fingerprint: The value of the `fingerprint` item.
    ///   - bundleID: The app's bundle identifier.
    ///   - persistenceString: The value of the item named by the fingerprint.
    ///   - additionalParameters: The value of the `~~atrp` item, if any.
    /// - Returns: The session, on Google, with the redirect GoogleSignIn used.
    /// - Throws: ``MigrationError/Kind/malformedItem`` when the fingerprint or string is unusable.
    public static func decode(
        fingerprint: String,
        bundleID: String,
        persistenceString: String,
        additionalParameters: String?
    ) throws -> AuthState {
        guard let clientID = clientID(inFingerprint: fingerprint, bundleID: bundleID), !clientID.isEmpty else {
            throw MigrationError.malformedItem(
                "The GoogleSignIn fingerprint does not start with the bundle ID \(bundleID) and a client ID; pass the "
                    + "bundle ID of the app that wrote the item, and its fingerprint item unchanged."
            )
        }
        let scheme = clientID.split(separator: ".", omittingEmptySubsequences: false).reversed().joined(separator: ".")
            .lowercased()
        guard let redirect = URL(string: scheme + ":/oauth2callback") else {
            throw MigrationError.malformedItem(
                "The GoogleSignIn client ID does not give a valid redirect URI; re-export the fingerprint item.")
        }
        var combined = persistenceString
        if let additionalParameters, !additionalParameters.isEmpty { combined += "&" + additionalParameters }
        var state = try GTMOAuth2PersistenceString.decode(
            combined,
            server: .google,
            client: Client(id: clientID, redirectURI: redirect)
        )
        state.metadata["googleSignIn.fingerprint"] = fingerprint
        return state
    }
}
