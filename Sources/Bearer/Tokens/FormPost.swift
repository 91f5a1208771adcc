import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builds the form-encoded POSTs that go to a server's endpoints (token, revocation, device).
enum FormPost {
    /// A POST of `parameters` to `endpoint`, authenticated as `client`: HTTP Basic for a client
    /// with a secret (RFC 6749 §2.3.1, id and secret form-encoded first), `client_id` in the body
    /// otherwise.
    static func urlRequest(endpoint: URL, parameters: [FormParameter], client: Client) -> URLRequest {
        var parameters = parameters
        if client.secret == nil && !parameters.contains(where: { $0.name == "client_id" }) {
            parameters.append(FormParameter("client_id", client.id))
        }
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let secret = client.secret {
            let credentials = FormEncoding.encode(client.id) + ":" + FormEncoding.encode(secret.value)
            request.setValue(
                "Basic " + Data(credentials.utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        }
        request.httpBody = Data(FormEncoding.encode(parameters.map { ($0.name, $0.value) }).utf8)
        return request
    }

    /// Describes a POST's parameters with secret values redacted.
    static func describe(_ parameters: [FormParameter]) -> String {
        parameters.map(\.description).joined(separator: "&")
    }
}
