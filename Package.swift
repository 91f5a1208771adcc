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
        // BearerCore, which Bearer re-exports, is listed so that its API is the product's and
        // is compared with the last release (scripts/check-api).
        .library(name: "Bearer", targets: ["Bearer", "BearerCore"]),
        .library(name: "BearerMigration", targets: ["BearerMigration"]),
        // Fakes for an app's own unit tests: a recording transport, a test clock, a fake Authorizer.
        .library(name: "BearerTesting", targets: ["BearerTesting"]),
        // A session store for server fleets, over libpq (a system library found with pkg-config).
        .library(name: "BearerPostgres", targets: ["BearerPostgres"]),
        .executable(name: "bearer", targets: ["BearerCLI"]),
        .executable(name: "bearer-full", targets: ["BearerFullCLI"]),
    ],
    targets: [
        // Apple's privacy manifest, which apps embedding Bearer ship: a resource-only target that
        // BearerCore depends on where Apple's platforms need it, so that Linux builds of BearerCore
        // carry no resource bundle (scripts/check-apple checks the manifest against the sources).
        .target(
            name: "BearerCore",
            dependencies: [
                .target(
                    name: "BearerPrivacyInfo",
                    condition: .when(platforms: [.macOS, .iOS, .macCatalyst, .tvOS, .watchOS, .visionOS]))
            ]
        ),
        .target(name: "BearerPrivacyInfo", resources: [.copy("PrivacyInfo.xcprivacy")]),
        // DPoP proofs are signed, and servers' signatures checked, by CryptoKit and Security on Apple
        // platforms and by OpenSSL's libcrypto on Linux
        // (a system library found with pkg-config), linked only where the networking library is.
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .target(
            name: "Bearer",
            dependencies: ["BearerCore", .target(name: "CLibCrypto", condition: .when(platforms: [.linux]))]
        ),
        .target(name: "BearerMigration", dependencies: ["BearerCore", "Bearer"], path: "Migration"),
        .target(name: "BearerTesting", dependencies: ["BearerCore", "Bearer"]),
        .target(
            name: "BearerTestSupport", dependencies: ["BearerCore", "Bearer", "BearerTesting"],
            path: "Tests/BearerTestSupport"),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .target(name: "BearerPostgres", dependencies: ["BearerCore", "CLibPQ"]),
        // SQLite, for the tool's import of gcloud's credential database (read only).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(name: "BearerCommandLineCore", dependencies: ["BearerCore"]),
        .target(
            name: "BearerCommandLine",
            dependencies: ["BearerCore", "Bearer", "BearerMigration", "BearerCommandLineCore", "CSQLite"]),
        .executableTarget(name: "BearerCLI", dependencies: ["BearerCommandLineCore"]),
        .executableTarget(name: "BearerFullCLI", dependencies: ["BearerCommandLine"]),
        .executableTarget(
            name: "BearerBenchmarks",
            dependencies: [
                "BearerCore", "Bearer", "BearerMigration", "BearerPostgres", "CLibPQ", "CReadinessPoller",
                .target(name: "CLibCrypto", condition: .when(platforms: [.linux])),
            ]
        ),
        // epoll for the benchmarks' floor of the PostgreSQL store (Sources/CReadinessPoller).
        .target(name: "CReadinessPoller"),
        .executableTarget(
            name: "BearerSessionProbe", dependencies: ["BearerCore", "Bearer", "BearerTestSupport"],
            path: "Tests/SessionProbe"),
        .executableTarget(
            name: "BearerFleetWorker",
            dependencies: ["Bearer", "BearerPostgres"],
            path: "Tests/FleetWorker"
        ),
        .testTarget(name: "BearerTests", dependencies: ["Bearer", "BearerTesting", "BearerTestSupport"]),
        .testTarget(
            name: "BearerCommandLineTests",
            dependencies: ["BearerCommandLine", "BearerTesting", "BearerTestSupport", "CSQLite"]
        ),
        .testTarget(
            name: "BearerMigrationTests",
            dependencies: ["BearerMigration", "BearerTesting", "BearerTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "BearerPostgresTests",
            dependencies: ["BearerPostgres", "Bearer", "BearerTestSupport", "BearerFleetWorker", "CLibPQ"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "Bearer", "BearerTesting", "BearerTestSupport", "BearerSessionProbe", "BearerCLI", "BearerFullCLI",
            ],
            exclude: ["Server"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .test && target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
