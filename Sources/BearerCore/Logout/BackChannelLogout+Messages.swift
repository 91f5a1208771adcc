#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension BackChannelLogout {
    /// A POST to the app's `backchannel_logout_uri`, as the app's HTTP server received it.
    public struct Request: Sendable {
        /// The HTTP method.
        public var method: String
        /// The `Content-Type` header field, if any.
        public var contentType: String?
        /// The body.
        public var body: Data

        /// Creates a request.
        ///
        /// - Parameters:
        ///   - method: The HTTP method; `POST` by default.
        ///   - contentType: The `Content-Type` header field.
        ///   - body: The body.
        public init(method: String = "POST", contentType: String?, body: Data) {
            self.method = method
            self.contentType = contentType
            self.body = body
        }
    }

    /// What to send back to the provider.
    public struct Response: Sendable, Hashable {
        /// The HTTP status: 200, 400 or 405.
        public var status: Int
        /// The header fields; always `Cache-Control: no-store`.
        public var headerFields: [String: String]
        /// The body: empty, or an OAuth error object (`error`, `error_description`).
        public var body: Data

        init(status: Int, headerFields: [String: String], error: (code: String, description: String)?) {
            var fields = headerFields
            fields["Cache-Control"] = "no-store"
            self.status = status
            if let error {
                fields["Content-Type"] = "application/json"
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                body =
                    (try? encoder.encode(["error": error.code, "error_description": error.description]))
                    ?? Data(#"{"error":"\#(error.code)"}"#.utf8)
            } else {
                body = Data()
            }
            self.headerFields = fields
        }

        /// A 400 `invalid_request`.
        static func refusal(_ description: String) -> Response {
            Response(status: 400, headerFields: [:], error: ("invalid_request", description))
        }
    }
}
