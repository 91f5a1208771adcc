#if canImport(AuthenticationServices)
    import AuthenticationServices

    extension WebAuthenticationCallback {
        /// The system's form of this callback.
        @available(iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4, *)
        var sessionCallback: ASWebAuthenticationSession.Callback {
            switch self {
            case .customScheme(let scheme): .customScheme(scheme)
            case .https(let host, let path): .https(host: host, path: path)
            }
        }
    }
#endif
