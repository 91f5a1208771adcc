public import Foundation

extension Client {
    /// The Google iOS client that a GoogleSignIn app's Info.plist already describes, so an app
    /// moving to Bearer changes no configuration: the client ID is `GIDClientID`, and the redirect
    /// URI is its reversed form (``googleiOS(clientID:)``), which must be registered as a URL scheme
    /// under `CFBundleURLTypes`.
    ///
    /// ```swift
    /// let client = try Client.googleSignIn()
    /// ```
    ///
    /// - Parameter bundle: The app's bundle.
    /// - Returns: The client.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when `GIDClientID` is missing or not a
    ///   Google iOS client ID, or when its reversed form is not a registered URL scheme (the
    ///   redirect would never reach the app).
    public static func googleSignIn(bundle: Bundle = .main) throws -> Client {
        try googleSignIn(infoDictionary: bundle.infoDictionary ?? [:])
    }

    /// The client of an Info.plist's contents; see ``googleSignIn(bundle:)``.
    package static func googleSignIn(infoDictionary: [String: Any]) throws -> Client {
        guard let clientID = infoDictionary["GIDClientID"] as? String, !clientID.isEmpty else {
            throw BearerError.invalidConfiguration(
                "The app's Info.plist has no GIDClientID; add it with the iOS client ID from Google Cloud Console."
            )
        }
        let client = try googleiOS(clientID: clientID)
        let scheme = (client.redirectURI.scheme ?? "").lowercased()
        let urlTypes = infoDictionary["CFBundleURLTypes"] as? [[String: Any]] ?? []
        let registered = urlTypes.flatMap { $0["CFBundleURLSchemes"] as? [String] ?? [] }.map { $0.lowercased() }
        guard registered.contains(scheme) else {
            throw BearerError.invalidConfiguration(
                "The URL scheme \(scheme) (the reversed client ID) is not registered under CFBundleURLTypes in "
                    + "Info.plist, so Google's redirect cannot reach the app; add it as a URL type."
            )
        }
        return client
    }
}
