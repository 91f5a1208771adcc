#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Where a workload's platform token is read: a file its platform keeps fresh, such as a
/// Kubernetes projected service-account token or a CI job's OIDC token written to disk.
///
/// The file is read each time the derived session is made, so a token the platform rotated is
/// the one sent; the token itself is never saved with the session.
///
/// ```swift
/// let token = WorkloadTokenSource.file("/var/run/secrets/tokens/gcp-token")
/// ```
public struct WorkloadTokenSource: Sendable, Hashable, Codable {
    /// The file's path.
    public let path: String
    /// The member of the file's JSON object that holds the token; `nil` for a file that holds
    /// the token alone (whitespace around it is ignored).
    public let jsonField: String?

    /// The largest file read (64 KiB); platform tokens are a few kilobytes.
    static let maximumSize = 64 << 10

    /// A token read from a file.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - jsonField: The JSON member that holds the token, for a JSON file.
    /// - Returns: The source.
    public static func file(_ path: String, jsonField: String? = nil) -> Self {
        Self(path: path, jsonField: jsonField)
    }

    /// The token the file holds now.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the file cannot be read, is larger
    ///   than 64 KiB, or holds no token (nothing is sent).
    func read() throws -> SecurityToken {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Self.failure("cannot be read (\(type(of: error)))", path)
        }
        guard data.count <= Self.maximumSize else { throw Self.failure("is larger than 64 KiB", path) }
        let text: String
        if let jsonField {
            guard case .object(let members)? = try? JSONParser.parse(data), let value = members[jsonField]?.stringValue
            else {
                throw Self.failure("is not a JSON object with a string \"\(jsonField.printable)\"", path)
            }
            text = value
        } else {
            text = String(decoding: data, as: UTF8.self)
        }
        var token = Substring(text)
        while token.first?.isWhitespace == true { token.removeFirst() }
        while token.last?.isWhitespace == true { token.removeLast() }
        guard !token.isEmpty, B64Token.isValid(String(token)) else {
            throw Self.failure("holds no token (an empty file, or characters a token may not hold)", path)
        }
        return SecurityToken(String(token))
    }

    private static func failure(_ reason: String, _ path: String) -> BearerError {
        BearerError.invalidConfiguration(
            "The workload token file \(path.printable) \(reason); nothing was sent. Check that the platform "
                + "mounts or writes it where the configuration says.")
    }
}

/// The service account whose access token a workload asks for with its exchanged token (Google's
/// IAM Credentials `generateAccessToken`, named by `service_account_impersonation_url`).
public struct ServiceAccountImpersonation: Sendable, Hashable, Codable {
    /// The `…/serviceAccounts/EMAIL:generateAccessToken` URL.
    public let url: URL
    /// How long the token asked for lives, in seconds (3600 by default; Google allows up to
    /// 43200 where its policy does).
    public let lifetime: TimeInterval

    /// Names the service account.
    ///
    /// - Parameters:
    ///   - url: The `generateAccessToken` URL.
    ///   - lifetime: The token's lifetime in seconds.
    public init(url: URL, lifetime: TimeInterval = 3600) {
        self.url = url
        self.lifetime = lifetime
    }
}
