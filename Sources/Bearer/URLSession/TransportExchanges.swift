@_spi(Bridge) import BearerCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLSession` delegate of ``URLSessionTransport``: collects each task's answer, refuses one
/// larger than its limit (from `Content-Length` first, then as bytes arrive), refuses every
/// redirect, and resumes the waiting caller exactly once.
///
/// `URLSession` calls a delegate from its own queue, so the exchanges in flight are kept behind a
/// lock; that lock is what makes this class safe to share across threads.
final class TransportExchanges: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Exchange {
        let url: URL?
        let limit: Int?
        let continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>
        var body = Data()
        var failure: (any Error)?
    }

    private let lock = NSLock()
    private var inFlight: [Int: Exchange] = [:]

    /// Records the caller waiting for `task`, which asks for `url`, and starts it.
    func start(
        _ task: URLSessionDataTask,
        url: URL?,
        limit: Int?,
        continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>
    ) {
        lock.withLock {
            inFlight[task.taskIdentifier] = Exchange(url: url, limit: limit, continuation: continuation)
        }
        task.resume()
    }

    /// Ends `task` with `error` (its deadline passed); the caller gets `error` when it completes.
    func fail(_ task: URLSessionTask, with error: any Error) {
        let recorded = lock.withLock { () -> Bool in
            guard inFlight[task.taskIdentifier] != nil else { return false }
            if inFlight[task.taskIdentifier]?.failure == nil { inFlight[task.taskIdentifier]?.failure = error }
            return true
        }
        if recorded { task.cancel() }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let declared = response.expectedContentLength
        let refusal = lock.withLock { () -> BearerError? in
            guard let exchange = inFlight[dataTask.taskIdentifier], let limit = exchange.limit,
                declared > Int64(limit)
            else { return nil }
            let error = ResponseLimit.tooLarge(exchange.url, size: declared, limit: limit)
            inFlight[dataTask.taskIdentifier]?.failure = error
            return error
        }
        completionHandler(refusal == nil ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        let overLimit = lock.withLock { () -> Bool in
            guard let exchange = inFlight[id], exchange.failure == nil else { return false }
            if let limit = exchange.limit, exchange.body.count + data.count > limit {
                inFlight[id]?.failure = ResponseLimit.tooLarge(exchange.url, size: nil, limit: limit)
                inFlight[id]?.body = Data()
                return true
            }
            inFlight[id]?.body.append(data)
            return false
        }
        // Cancelling waits for URLSession's own queue; done from here it would also stop this
        // queue from discarding the data still arriving, so it is done from another thread.
        if overLimit { DispatchQueue.global().async { dataTask.cancel() } }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = lock.withLock({ inFlight.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = exchange.failure {
            exchange.continuation.resume(throwing: failure)
        } else if let error {
            exchange.continuation.resume(throwing: error)
        } else if let response = task.response as? HTTPURLResponse {
            exchange.continuation.resume(returning: (exchange.body, response))
        } else {
            exchange.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

extension TransportExchanges: CustomReflectable {
    /// A mirror without the exchanges in flight, so `dump` shows no request URL or answer.
    var customMirror: Mirror { Mirror(self, children: ["inFlight": lock.withLock { inFlight.count }]) }
}
