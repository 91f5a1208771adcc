import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One benchmark figure, compared with a baseline measured in the same run.
struct Figure: Encodable {
    let name: String
    let value: Double
    let unit: String
    let baseline: Double?
    let baselineName: String?
    /// value / baseline, or baseline / value when higher is better (see `higherIsBetter`).
    let ratio: Double?
    let target: String?
    let meetsTarget: Bool?
}

enum Measure {
    /// The median of `values`.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Seconds taken by `body`.
    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Median seconds of `repeats` runs of `body`.
    static func medianSeconds(repeats: Int, _ body: () async throws -> Void) async rethrows -> Double {
        var samples: [Double] = []
        for _ in 0..<repeats { samples.append(try await seconds(body)) }
        return median(samples)
    }

    /// Runs an executable to completion, its output discarded, and returns its wall time. It is
    /// started with `posix_spawn` rather than `Process`, whose own set-up would add to the
    /// shortest runs and flatter their ratios.
    static func processSeconds(_ executable: String, _ arguments: [String], environment: [String: String]) throws
        -> Double
    {
        var status: Int32 = 0
        let clock = ContinuousClock()
        let start = clock.now
        let child = try spawn(executable, arguments, environment: environment, discardingErrors: true)
        guard waitpid(child, &status, 0) == child else { throw BenchmarkFailure("\(executable) could not be run") }
        let elapsed = clock.now - start
        guard status == 0 else {
            throw BenchmarkFailure("\(executable) \(arguments.joined(separator: " ")) ended with status \(status)")
        }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Starts an executable with `posix_spawn`, its standard output discarded (and its errors,
    /// with `discardingErrors`), with `environment` or else this process's.
    ///
    /// - Returns: The child's process id, for `waitpid`.
    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, discardingErrors: Bool
    ) throws -> pid_t {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        if discardingErrors { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for word in argv + (envp ?? []) { free(word) } }
        var child = pid_t()
        let status =
            if let envp { posix_spawn(&child, executable, &actions, nil, argv, envp) } else {
                posix_spawn(&child, executable, &actions, nil, argv, environ)
            }
        guard status == 0 else { throw BenchmarkFailure("cannot start \(executable)") }
        return child
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
