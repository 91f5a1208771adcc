import Bearer
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The window a refresh leaves open: a process that ends after the server rotated the refresh
/// token and before the new one is saved loses the grant on a server with reuse protection.
extension Benchmarks {
    /// `bearer token` on an expired session against the local token endpoint, as a whole process:
    /// from the last byte of the server's answer to the rename that makes the new session visible
    /// to other processes, against writing the same bytes durably by hand (create, write, `fsync`,
    /// rename), the least any save can do.
    ///
    /// Both ends are read on `CLOCK_MONOTONIC`, which every process shares: the server records
    /// when its answer's last byte was handed to the socket (on loopback the bytes are then in the
    /// tool's receive buffer), and a thread here waits on inotify for the rename. The figure
    /// therefore includes that thread's wake-up.
    static func refreshWindow(bearer: String, base: URL, repeats: Int) async throws -> Figure {
        #if os(Linux)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "bearer-bench-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = FileSessionStore(directory: folder)
            var environment = ProcessInfo.processInfo.environment
            environment["BEARER_CONFIG_DIR"] = folder.path
            var windows: [Double] = []
            var floors: [Double] = []
            for round in 0..<(2 + max(repeats * 3, 21)) {
                try await store.save(state(base, expiresAt: .distantPast), key: "default")
                let watch = try RenameWatch(folder: folder.path, name: "default.json")
                _ = try Measure.processSeconds(bearer, ["token"], environment: environment)
                let renamed = try watch.wait()
                let sent = try await lastAnswerSent(base)
                let saved = try Data(contentsOf: try store.fileURL(for: "default"))
                let floor = try durableWrite(saved, in: folder.path)
                if round >= 2 {
                    windows.append(renamed - sent)
                    floors.append(floor)
                }
            }
            let window = Measure.median(windows) * 1000
            let floor = Measure.median(floors) * 1000
            return Figure(
                name: "bearer token refreshing: answer's last byte → session file renamed",
                value: window, unit: "ms", baseline: floor,
                baselineName: "create, write, fsync and rename of the same bytes by hand (ms)",
                ratio: window / floor, target: nil, meetsTarget: nil)
        #else
            throw BenchmarkFailure("the refresh window is measured with inotify, on Linux only")
        #endif
    }

    /// When the server sent the last byte of its latest refresh answer, in seconds of
    /// `CLOCK_MONOTONIC`.
    private static func lastAnswerSent(_ base: URL) async throws -> Double {
        let (data, _) = try await URLSession.shared.data(from: base.appendingPathComponent("control/stats"))
        let stats = try JSONDecoder().decode([String: JSONValue].self, from: data)
        guard let sent = stats["last_answer_sent_at"]?.numberValue else {
            throw BenchmarkFailure("the token endpoint recorded no answer")
        }
        return sent
    }

    /// Seconds to create a file, write `data`, `fsync` it and rename it over another in `folder`.
    private static func durableWrite(_ data: Data, in folder: String) throws -> Double {
        let (temporary, target) = (folder + "/.floor.tmp", folder + "/floor.json")
        let start = RenameWatch.now()
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BenchmarkFailure("cannot create \(temporary)") }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == data.count, synced == 0, rename(temporary, target) == 0 else {
            throw BenchmarkFailure("cannot write \(target)")
        }
        return RenameWatch.now() - start
    }
}

#if os(Linux)
    /// Waits on inotify, on a thread of its own, for a file called `name` to be renamed into a
    /// folder, and records when.
    final class RenameWatch: @unchecked Sendable {
        // Unchecked: `renamedAt` is written by the thread before it signals `done`, and read after.
        private let descriptor: Int32
        private let done = DispatchSemaphore(value: 0)
        private var renamedAt: Double?

        init(folder: String, name: String) throws {
            descriptor = inotify_init1(Int32(IN_CLOEXEC))
            guard descriptor >= 0, inotify_add_watch(descriptor, folder, UInt32(IN_MOVED_TO)) >= 0 else {
                throw BenchmarkFailure("cannot watch \(folder)")
            }
            Thread.detachNewThread { [self] in
                renamedAt = waitForRename(of: name)
                done.signal()
            }
        }

        deinit {
            close(descriptor)
        }

        /// The time of the rename, once the thread saw it.
        func wait() throws -> Double {
            done.wait()
            guard let renamedAt else { throw BenchmarkFailure("the session file was not renamed") }
            return renamedAt
        }

        /// Seconds of `CLOCK_MONOTONIC`.
        static func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }

        private func waitForRename(of name: String) -> Double? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 10_000) > 0 else { return nil }
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                let at = Self.now()
                guard count > 0 else { return nil }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let (length, found) = buffer.withUnsafeBytes { bytes -> (Int, String) in
                        let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        let start = offset + MemoryLayout<inotify_event>.size
                        let field = bytes[start..<min(count, start + Int(event.len))]
                        return (Int(event.len), String(decoding: field.prefix { $0 != 0 }, as: UTF8.self))
                    }
                    if found == name { return at }
                    offset += MemoryLayout<inotify_event>.size + length
                }
            }
        }
    }
#endif
