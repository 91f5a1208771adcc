import Bearer
import Foundation
import Testing

@testable import BearerCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Server/dpop_resource.py, the independent DPoP proof verifier, on Debian's python3 and
/// python3-cryptography, started for one test suite.
final class DPoPResource: @unchecked Sendable {
    let base: URL
    private let process = Process()

    /// Debian's python3, whose python3-cryptography the verifier uses.
    static let python = URL(fileURLWithPath: "/usr/bin/python3")

    init(arguments: [String] = []) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Server/dpop_resource.py")
        process.executableURL = Self.python
        process.arguments = [script.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        base = try #require(URL(string: text), "the DPoP resource printed its URL")
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// A resource URL under `/resource`.
    func url(_ path: String = "/resource") throws -> URL {
        try #require(URL(string: base.absoluteString + path))
    }

    /// One verified request, as the verifier logged it.
    struct Verification: Sendable {
        var status: Int
        var method: String
        var failed: String?
        var jkt: String?
        var nonceUsed: Bool
    }

    /// What the verifier logged, in order.
    func log() async throws -> [Verification] {
        let (data, _) = try await TestServer.transport.send(URLRequest(url: try url("/log")))
        let object = try JSONDecoder().decode([String: JSONValue].self, from: data)
        guard case .array(let entries)? = object["verified"] else { return [] }
        return entries.compactMap { entry in
            guard case .object(let fields) = entry else { return nil }
            return Verification(
                status: Int(fields["status"]?.numberValue ?? 0), method: fields["method"]?.stringValue ?? "",
                failed: fields["failed"]?.stringValue, jkt: fields["jkt"]?.stringValue,
                nonceUsed: fields["nonce_used"]?.boolValue ?? false)
        }
    }
}
