import BearerCommandLineCore
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The built `bearer` copied into a SwiftPM build folder, `<package>/.build/<triple>/debug/`,
/// with `bearer-full` missing, so that it looks for a checkout to build the whole tool in. The
/// package's `Package.swift` declares `bearer-full`, and a `swift` first on `PATH` records that it
/// ran instead of building. In a folder others can write to, bearer must build nothing and print
/// the command; in a checkout that is the user's alone, it runs `swift build` there.
@Suite("End to end: bearer builds the whole tool only in a checkout of the user's own")
struct PlantedManifestEndToEndTests {
    @Test("A planted manifest in a shared folder is not built: bearer prints the swift build command")
    func sharedFolderIsNotBuilt() async throws {
        let layout = try Layout(packageMode: 0o777)
        defer { layout.remove() }
        let result = try await layout.runBearer()
        #expect(result.status == 1)
        #expect(result.stderr.contains("can be changed by every user (mode 0777)"), "\(result.stderr)")
        #expect(result.stderr.contains("swift build --package-path"))
        #expect(!FileManager.default.fileExists(atPath: layout.swiftRan.path), "swift ran on a planted manifest")
    }

    @Test(
        "A planted manifest in a checkout owned by another user is not built",
        .enabled(if: geteuid() == 0, "only root can give a folder to another user")
    )
    func otherUsersCheckoutIsNotBuilt() async throws {
        let layout = try Layout(packageMode: 0o755)
        defer { layout.remove() }
        // nobody (65534) owns the package folder and its manifest; the build folders stay root's.
        chown(layout.package.path, 65_534, 65_534)
        chown(layout.package.appendingPathComponent("Package.swift").path, 65_534, 65_534)
        let result = try await layout.runBearer()
        #expect(result.status == 1)
        #expect(result.stderr.contains("belongs to another user"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: layout.swiftRan.path), "swift ran on another user's manifest")
    }

    @Test("A bearer-full planted in a build folder others can write to is not run")
    func plantedExecutableIsNotRun() async throws {
        let layout = try Layout(packageMode: 0o755)
        defer { layout.remove() }
        let folder = layout.bearer.deletingLastPathComponent()
        let planted = folder.appendingPathComponent("bearer-full")
        let ran = layout.root.appendingPathComponent("planted-ran")
        try Data("#!/bin/sh\ntouch '\(ran.path)'\n".utf8).write(to: planted)
        chmod(planted.path, 0o755)
        chmod(folder.path, 0o777)
        let result = try await layout.runBearer()
        chmod(folder.path, 0o755)
        #expect(result.status == 1)
        #expect(result.stderr.contains("does not run it"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ran.path), "a planted bearer-full ran")
    }

    @Test("A checkout of the user's own is built there, with swift from PATH")
    func ownCheckoutIsBuilt() async throws {
        let layout = try Layout(packageMode: 0o755)
        defer { layout.remove() }
        let result = try await layout.runBearer()
        #expect(FileManager.default.fileExists(atPath: layout.swiftRan.path), "\(result.stderr)")
        #expect(result.stderr.contains("building bearer-full"))
    }

    @Test("A checkout writable by the user's private group, as a umask of 002 makes it, is the user's own")
    func privateGroupCheckoutIsBuilt() async throws {
        let layout = try Layout(packageMode: 0o775, folderMode: 0o775)
        defer { layout.remove() }
        let result = try await layout.runBearer()
        // Root's group, or a developer's: a private group where the group database says so.
        if FullTool.isPrivateGroup(UInt32(getegid()), of: UInt32(geteuid())) {
            #expect(FileManager.default.fileExists(atPath: layout.swiftRan.path), "\(result.stderr)")
            #expect(result.stderr.contains("building bearer-full"))
        } else {
            #expect(result.status == 1)
            #expect(result.stderr.contains("which is not your private group"), "\(result.stderr)")
        }
    }

    @Test(
        "A checkout writable by a group that is not the user's private group is not built, and the message names it",
        .enabled(if: geteuid() == 0, "only root can give a folder to a group it is not in")
    )
    func sharedGroupCheckoutIsNotBuilt() async throws {
        let layout = try Layout(packageMode: 0o775, folderMode: 0o775)
        defer { layout.remove() }
        // nogroup (65534) is no one's private group.
        let scratch = layout.package.appendingPathComponent(".build")
        chown(scratch.path, geteuid(), 65_534)
        let result = try await layout.runBearer()
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "\(scratch.path) can be changed by the members of its group 65534 (mode 0775), which is not your "
                    + "private group"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: layout.swiftRan.path), "swift ran in a shared group's folder")
    }

    /// A package folder with a manifest that declares `bearer-full`, the built `bearer` in its
    /// build folder, and a fake `swift`.
    struct Layout {
        let root: URL
        let package: URL
        let bearer: URL
        let swiftRan: URL
        let fakeBin: URL

        init(packageMode: mode_t, folderMode: mode_t = 0o755) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-planted-\(UUID().uuidString)")
            package = root.appendingPathComponent("package")
            let build = package.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug")
            try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
            try Data(#"let package = Package(products: [.executable(name: "bearer-full", targets: [])])"#.utf8)
                .write(to: package.appendingPathComponent("Package.swift"))
            chmod(package.appendingPathComponent("Package.swift").path, 0o644)
            for folder in [".build", ".build/x86_64-unknown-linux-gnu", ".build/x86_64-unknown-linux-gnu/debug"] {
                chmod(package.appendingPathComponent(folder).path, folderMode)
            }
            chmod(package.path, packageMode)
            bearer = build.appendingPathComponent("bearer")
            try FileManager.default.copyItem(at: try BuiltProduct.path("bearer"), to: bearer)
            swiftRan = root.appendingPathComponent("swift-ran")
            fakeBin = root.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: fakeBin, withIntermediateDirectories: true)
            let swift = fakeBin.appendingPathComponent("swift")
            try Data("#!/bin/sh\ntouch '\(swiftRan.path)'\nexit 1\n".utf8).write(to: swift)
            chmod(swift.path, 0o755)
        }

        /// Runs `bearer token` as a user would from that folder, with the fake `swift` first on PATH.
        func runBearer() async throws -> ChildProcess.Result {
            let path = fakeBin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            let running = try ChildProcess(
                bearer, arguments: ["token"],
                environment: ["PATH": path, "BEARER_CONFIG_DIR": root.appendingPathComponent("config").path])
            return await running.finish()
        }

        func remove() {
            chmod(package.path, 0o755)
            try? FileManager.default.removeItem(at: root)
        }
    }
}
