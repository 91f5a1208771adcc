import Foundation
import Testing

/// A running BearerSessionProbe process (see Tests/SessionProbe).
struct ProbeProcess: @unchecked Sendable {
    // Unchecked: where `Process` is not Sendable; it is started in `init` and only waited for afterwards.
    private let process = Process()
    private let output = Pipe()

    /// The probe executable, built next to the test bundle.
    static func executable() throws -> URL {
        try BuiltProduct.path("BearerSessionProbe")
    }

    init(_ executable: URL, arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        try process.run()
    }

    /// Waits, on a thread of its own, for the probe to end; returns its status and output.
    func waitForOutput() async throws -> (status: Int32, text: String) {
        try await onOwnThread {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }

    /// Waits for every probe of `probes`, in order.
    static func outputs(of probes: [ProbeProcess]) async throws -> [(status: Int32, text: String)] {
        var outputs: [(status: Int32, text: String)] = []
        for probe in probes { outputs.append(try await probe.waitForOutput()) }
        return outputs
    }
}

/// Executables built by the package, found next to the test bundle.
enum BuiltProduct {
    static func path(_ name: String) throws -> URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0])
        var directory = testBinary.deletingLastPathComponent()
        while !directory.path.isEmpty && directory.path != "/" {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw ProductMissing(name: name)
    }
}

struct ProductMissing: Error, CustomStringConvertible {
    let name: String
    var description: String { "\(name) was not found next to the test binary; run swift build first." }
}
