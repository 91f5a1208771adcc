#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Google's IAM Credentials `generateAccessToken`: a service account's token for a workload
// whose exchanged token may impersonate it.
extension AuthorizationServerClient {
    /// `state` with the access token of the service account `impersonation` names, asked for with
    /// `state`'s own (exchanged) access token.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the service refuses (HTTP 401 or
    ///   403: the workload may not impersonate that account); ``BearerError/Kind/invalidResponse``
    ///   for an answer without a token or an expiry; ``BearerError/Kind/serverUnavailable`` for
    ///   5xx and 429.
    func impersonating(
        _ impersonation: ServiceAccountImpersonation, with state: AuthState, scopes: [String]
    ) async throws -> AuthState {
        try EndpointSecurity.check(impersonation.url, allowingInsecureLoopback: state.server.allowsInsecureLoopback)
        guard let exchanged = state.accessToken?.authorizationHeaderValue else {
            throw BearerError.invalidResponse("The token exchange gave no access token to impersonate with.")
        }
        let body: [String: JSONValue] = [
            "scope": .array(scopes.map(JSONValue.string)), "lifetime": .string("\(Int(impersonation.lifetime))s"),
        ]
        let request = TransportRequest(
            method: .post, url: impersonation.url,
            headerFields: [
                "Authorization": exchanged, "Content-Type": "application/json", "Accept": "application/json",
            ],
            body: try JSONEncoder().encode(body))
        let response = try await send(request)
        if response.status == 401 || response.status == 403 {
            throw BearerError.invalidConfiguration(
                "The service account at \(impersonation.url.absoluteString) refused the workload (HTTP "
                    + "\(response.status)): grant the workload's principal the right to impersonate it "
                    + "(at Google, roles/iam.workloadIdentityUser or roles/iam.serviceAccountTokenCreator).")
        }
        let object = try Self.jsonObject(from: response, endpointName: "service account", now: clock.now())
        guard let token = object["accessToken"]?.stringValue, B64Token.isValid(token),
            let expiry = object["expireTime"]?.stringValue.flatMap(RFC3339Time.date(from:))
        else {
            throw BearerError.invalidResponse(
                "The service account's answer has no accessToken and expireTime; nothing was kept.")
        }
        var impersonated = state
        impersonated.accessToken = AccessToken(token)
        impersonated.accessTokenExpiresAt = expiry
        impersonated.accessTokenLifetime = expiry.timeIntervalSince(clock.now())
        impersonated.refreshToken = nil
        impersonated.grantedScopes = scopes
        return impersonated
    }
}

/// RFC 3339 times in UTC as Google's APIs write them (`2026-12-07T10:00:00Z`, with up to nine
/// digits of fractions of a second).
enum RFC3339Time {
    /// The date `text` names, or `nil` when it is not a UTC RFC 3339 time.
    static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 30, bytes.last == UInt8(ascii: "Z") || bytes.last == UInt8(ascii: "z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"), let year = number(0..<4), let month = number(5..<7),
            let day = number(8..<10), let hour = number(11..<13), let minute = number(14..<16),
            let second = number(17..<19), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var fraction = 0.0
        if bytes.count > 20 {
            guard bytes[19] == UInt8(ascii: "."), bytes.count > 21, let digits = number(20..<(bytes.count - 1)) else {
                return nil
            }
            var scale = 1.0
            for _ in 21..<bytes.count { scale *= 10 }
            fraction = Double(digits) / scale
        } else if bytes[19] != UInt8(ascii: "Z") && bytes[19] != UInt8(ascii: "z") {
            return nil
        }
        // Days from 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }
}
