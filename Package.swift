// swift-tools-version: 6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Bearer",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Bearer", targets: ["Bearer"]),
        .library(name: "BearerMigration", targets: ["BearerMigration"]),
        .library(name: "BearerPostgres", targets: ["BearerPostgres"]),
        .executable(name: "bearer", targets: ["BearerCLI"]),
        .executable(name: "bearer-full", targets: ["BearerFullCLI"]),
    ],
    targets: [
        .target(name: "BearerCore"),
        .target(name: "Bearer", dependencies: ["BearerCore"]),
        .target(name: "BearerMigration", dependencies: ["Bearer"], path: "Migration"),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .target(name: "BearerPostgres", dependencies: ["BearerCore", "CLibPQ"]),
        .target(name: "BearerTestSupport", dependencies: ["Bearer"], path: "Tests/BearerTestSupport"),
        .target(name: "BearerCommandLineCore", dependencies: ["BearerCore"]),
        .target(name: "BearerCommandLine", dependencies: ["Bearer", "BearerMigration", "BearerCommandLineCore"]),
        .executableTarget(name: "BearerCLI", dependencies: ["BearerCommandLineCore"]),
        .executableTarget(name: "BearerFullCLI", dependencies: ["BearerCommandLine"]),
        .executableTarget(
            name: "BearerBenchmarks",
            dependencies: ["Bearer", "BearerMigration", "BearerPostgres", "CLibPQ"]
        ),
        .executableTarget(name: "BearerSessionProbe", dependencies: ["Bearer"], path: "Tests/SessionProbe"),
        .executableTarget(
            name: "BearerFleetWorker",
            dependencies: ["Bearer", "BearerPostgres"],
            path: "Tests/FleetWorker"
        ),
        .testTarget(name: "BearerTests", dependencies: ["Bearer", "BearerTestSupport"]),
        .testTarget(name: "BearerCommandLineTests", dependencies: ["BearerCommandLine", "BearerTestSupport"]),
        .testTarget(
            name: "BearerMigrationTests",
            dependencies: ["BearerMigration", "BearerTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "BearerPostgresTests",
            dependencies: ["BearerPostgres", "Bearer", "BearerTestSupport", "BearerFleetWorker", "CLibPQ"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["Bearer", "BearerTestSupport", "BearerSessionProbe", "BearerCLI", "BearerFullCLI"],
            exclude: ["Server"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .test && target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
