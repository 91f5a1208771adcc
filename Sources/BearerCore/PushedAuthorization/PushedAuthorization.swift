#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the server answered a pushed authorization request with (RFC 9126 §2.2): the
/// `request_uri` the browser carries instead of the request, and until when it may be used.
struct PushedAuthorization: Sendable, Hashable, Codable {
    /// The longest `request_uri` kept; RFC 9126 expects a short reference.
    static let maximumRequestURILength = 2048
    /// The longest lifetime believed (a day); a `request_uri` is meant to live seconds or minutes.
    static let longestLifetime: TimeInterval = 86_400

    /// The reference to the pushed request, sent with `client_id` to the authorization endpoint.
    let requestURI: String
    /// When the reference expires (the answer's `expires_in` after it arrived).
    let expiresAt: Date

    /// Creates the value from its parts.
    init(requestURI: String, expiresAt: Date) {
        self.requestURI = requestURI
        self.expiresAt = expiresAt
    }

    /// Reads a successful answer's JSON object.
    ///
    /// - Parameters:
    ///   - object: The answer's JSON object.
    ///   - now: When it arrived.
    /// - Throws: ``BearerError/Kind/invalidResponse`` when `request_uri` is missing, empty or longer
    ///   than ``maximumRequestURILength``, or `expires_in` is not a positive whole number of seconds.
    init(answer object: [String: JSONValue], receivedAt now: Date) throws {
        guard let requestURI = object["request_uri"]?.stringValue, !requestURI.isEmpty,
            requestURI.utf8.count <= Self.maximumRequestURILength,
            requestURI.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw BearerError.invalidResponse(
                "The pushed authorization request endpoint answered without a usable request_uri (RFC 9126 §2.2); "
                    + "nothing was shown to the user. The server is not following RFC 9126: report it to its operator.")
        }
        guard case .number(let lifetime)? = object["expires_in"], lifetime >= 1,
            lifetime.rounded(.towardZero) == lifetime
        else {
            throw BearerError.invalidResponse(
                "The pushed authorization request endpoint answered without a whole, positive expires_in "
                    + "(RFC 9126 §2.2); nothing was shown to the user. The server is not following RFC 9126: "
                    + "report it to its operator.")
        }
        self.init(requestURI: requestURI, expiresAt: now.addingTimeInterval(min(lifetime, Self.longestLifetime)))
    }
}
