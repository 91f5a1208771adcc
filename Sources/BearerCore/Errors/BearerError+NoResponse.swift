extension BearerError {
    /// `error`, thrown while sending a request to `host`, as Bearer reports a request that got no
    /// answer: ``BearerError/Kind/network`` with what to do; cancellation and Bearer's own errors
    /// pass as they are.
    static func reportingNoResponse(_ error: any Error, from host: String?) -> any Error {
        switch error {
        case is BearerError: error
        case is CancellationError: CancellationError()
        default:
            BearerError.network(
                "No response from \(host ?? "the server"): \(error). Check the connection and try again.",
                underlyingError: error)
        }
    }
}
