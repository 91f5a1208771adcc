import Foundation

/// Records values handed to a callback from any task or thread, in order: progress reports,
/// opened URLs.
public final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    /// Creates an empty recorder.
    public init() {}

    /// Everything recorded so far.
    public var all: [Value] { lock.withLock { values } }

    /// Records `value`.
    ///
    /// - Parameter value: The value.
    public func record(_ value: Value) {
        lock.withLock { values.append(value) }
    }
}
