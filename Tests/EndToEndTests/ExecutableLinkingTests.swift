import Foundation
import Testing

/// The `bearer` executable answers `token` and `status` without the networking library, which
/// loads libcurl and about 30 other shared libraries at start-up; `bearer-full` has it.
@Suite("What the executables link")
struct ExecutableLinkingTests {
    /// The shared libraries `ldd` lists for `executable`.
    private func sharedLibraries(of executable: URL) async throws -> String {
        let ldd = try ChildProcess(URL(fileURLWithPath: "/usr/bin/ldd"), arguments: [executable.path], environment: [:])
        let result = await ldd.finish()
        try #require(result.status == 0, "\(result.stderr)")
        return result.output
    }

    @Test(
        "bearer links no networking library; bearer-full does",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ldd"), "ldd is Linux's")
    )
    func onlyTheWholeToolLinksNetworking() async throws {
        let fast = try await sharedLibraries(of: try BuiltProduct.path("bearer"))
        let full = try await sharedLibraries(of: try BuiltProduct.path("bearer-full"))
        for library in ["FoundationNetworking", "libcurl"] {
            #expect(!fast.contains(library), "bearer links \(library)")
        }
        #expect(full.contains("FoundationNetworking") || full.contains("libcurl"))
    }
}
