extension TokenRequest {
    /// Sends the request and reads the answer.
    ///
    /// - Parameter transport: Sends the HTTP request.
    /// - Returns: The token response.
    /// - Throws: ``OAuthError`` when the server reports an error; ``BearerError`` when the endpoint
    ///   is not secure, cannot be reached, or answers something other than a token response.
    public func send(using transport: some HTTPTransport) async throws -> TokenResponse {
        try server.checkSecure(endpoint)
        let (data, response) = try await transport.sendReportingNetworkErrors(urlRequest)
        return try TokenResponse(data: data, response: response)
    }
}
