import Foundation

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

    /// Runs an executable and returns its wall time.
    static func processSeconds(_ executable: String, _ arguments: [String], environment: [String: String]) throws
        -> Double
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        process.waitUntilExit()
        let elapsed = clock.now - start
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure(
                "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
