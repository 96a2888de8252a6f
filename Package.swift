// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "DataStoreHistory",
    // `Mutex` (Synchronization) needs these minimums on Apple platforms; Linux has no minimum.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // The one import app code needs, as `import SwiftData`: the model layer and the default stores.
        .library(name: "DataStoreHistory", targets: ["DataStoreHistory"]),
        .library(name: "DataStoreCore", targets: ["DataStoreCore"]),
        .library(name: "InMemoryStorage", targets: ["InMemoryStorage"]),
        .library(name: "JSONFileStorage", targets: ["JSONFileStorage"]),
        .library(name: "TimeSeriesStorage", targets: ["TimeSeriesStorage"]),
        // What file-backed stores share: framing, locks, atomic replace, repair, the change feed.
        .library(name: "StoreFileSupport", targets: ["StoreFileSupport"]),
        .library(name: "DataStoreConformance", targets: ["DataStoreConformance"]),
        // The PostgreSQL store: empty unless the package is used with the `PostgreSQL` trait.
        .library(name: "PostgresStorage", targets: ["PostgresStorage"]),
        .executable(name: "datastore", targets: ["datastore"]),
        .executable(name: "sample-trips", targets: ["sample-trips"]),
        .executable(name: "sensor-log", targets: ["sensor-log"]),
        .executable(name: "trip-sync", targets: ["trip-sync"]),
        .executable(name: "postgres-sync", targets: ["postgres-sync"]),
    ],
    // The PostgreSQL backend links the system's libpq. It is off by default, so that the package builds with the
    // toolchain alone; an app turns it on by naming the trait in its dependency on this package (README).
    traits: [
        .trait(
            name: "PostgreSQL",
            description:
                "Builds PostgresDataStore, which links libpq (Debian/Ubuntu: libpq-dev; Homebrew: libpq).")
    ],
    targets: [
        .target(name: "DataStoreCore"),
        .target(name: "InMemoryStorage", dependencies: ["DataStoreCore"]),
        .target(
            name: "DataStoreHistory", dependencies: ["DataStoreCore", "InMemoryStorage", "JSONFileStorage"]),
        // File mechanics both file backends share: record framing and checksums, locks, atomic replace, watching.
        .target(name: "StoreFileSupport", dependencies: ["DataStoreCore"]),
        .target(name: "JSONFileStorage", dependencies: ["DataStoreCore", "StoreFileSupport"]),
        .target(name: "TimeSeriesStorage", dependencies: ["DataStoreCore", "StoreFileSupport"]),
        // PostgreSQL's C client library, through pkg-config; only linked with the `PostgreSQL` trait.
        .systemLibrary(
            name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .target(
            name: "PostgresStorage",
            dependencies: [
                "DataStoreCore", "StoreFileSupport",
                .target(name: "CLibPQ", condition: .when(traits: ["PostgreSQL"])),
            ]),
        // The conformance suite backend authors run from their tests; independent of any test framework.
        .target(name: "DataStoreConformance", dependencies: ["DataStoreCore"]),

        // The `datastore` command-line tool: its logic in a library, so it can be tested.
        .target(
            name: "DataStoreTool",
            dependencies: [
                "DataStoreCore", "StoreFileSupport", "JSONFileStorage", "TimeSeriesStorage",
                "PostgresStorage",
            ]),
        .executableTarget(name: "datastore", dependencies: ["DataStoreTool"]),

        // The seeds' models and history functions, shared by the flagship example and the tests.
        .target(name: "SampleTrips", dependencies: ["DataStoreCore"], path: "Examples/SampleTrips"),
        .executableTarget(
            name: "sample-trips",
            dependencies: ["DataStoreCore", "JSONFileStorage", "SampleTrips"],
            path: "Examples/sample-trips", exclude: ["README.md"]
        ),

        .executableTarget(
            name: "sensor-log", dependencies: ["DataStoreCore", "TimeSeriesStorage"],
            path: "Examples/sensor-log", exclude: ["README.md"]),

        .executableTarget(
            name: "trip-sync",
            dependencies: [
                "DataStoreCore", "JSONFileStorage", "TimeSeriesStorage", "SampleTrips", "StoreFileSupport",
            ],
            path: "Examples/trip-sync", exclude: ["README.md"]),

        // Two-way sync of a device's store with a shared store by history tokens, and its example over PostgreSQL.
        .target(
            name: "TwoWaySync", dependencies: ["DataStoreCore", "StoreFileSupport"],
            path: "Examples/TwoWaySync"),
        .executableTarget(
            name: "postgres-sync",
            dependencies: [
                "DataStoreCore", "JSONFileStorage", "PostgresStorage", "TwoWaySync", "SampleTrips",
            ],
            path: "Examples/postgres-sync", exclude: ["README.md"]),

        // A fourth backend, written as the worked example of Docs/WritingABackend.md.
        .target(
            name: "FilePerModelStorage", dependencies: ["DataStoreCore", "StoreFileSupport"],
            path: "Examples/CustomStore/Sources/FilePerModelStorage"),
        .testTarget(
            name: "FilePerModelStorageTests", dependencies: ["FilePerModelStorage", "DataStoreConformance"],
            path: "Examples/CustomStore/Tests/FilePerModelStorageTests"),

        .testTarget(name: "DataStoreCoreTests", dependencies: ["DataStoreCore", "StoreTestSupport"]),
        .testTarget(
            name: "InMemoryStorageTests",
            dependencies: ["DataStoreCore", "InMemoryStorage", "DataStoreConformance", "SampleTrips"]),
        // The suite itself: broken stores it must catch.
        .testTarget(
            name: "DataStoreConformanceTests",
            dependencies: [
                "DataStoreCore", "DataStoreConformance", "InMemoryStorage", "JSONFileStorage",
                "TimeSeriesStorage",
            ]),
        // The multi-process tests' helper process and their shared harness.
        .target(
            name: "StoreTestSupport", dependencies: ["DataStoreCore", "TwoWaySync", "SampleTrips"],
            path: "Tests/StoreTestSupport"),
        .executableTarget(
            name: "datastore-test-process",
            dependencies: [
                "DataStoreCore", "DataStoreHistory", "JSONFileStorage", "TimeSeriesStorage", "SampleTrips",
                "StoreTestSupport", "PostgresStorage",
            ],
            path: "Tests/StoreProcessHelper"),
        .testTarget(name: "StoreFileSupportTests", dependencies: ["DataStoreCore", "StoreFileSupport"]),
        .testTarget(
            name: "JSONFileStorageTests",
            dependencies: [
                "DataStoreCore", "JSONFileStorage", "StoreFileSupport", "DataStoreConformance", "SampleTrips",
                "StoreTestSupport", "datastore-test-process",
            ],
            // Stores written by earlier versions, which must keep opening; read through #filePath.
            exclude: ["StoreFixtures"]),
        .testTarget(
            name: "TimeSeriesStorageTests",
            dependencies: [
                "DataStoreCore", "TimeSeriesStorage", "StoreFileSupport", "DataStoreConformance",
                "StoreTestSupport",
                "datastore-test-process",
            ]),
        .testTarget(
            name: "DataStoreToolTests",
            dependencies: [
                "DataStoreTool", "DataStoreCore", "JSONFileStorage", "StoreTestSupport", "datastore",
                "sample-trips",
                "datastore-test-process",
            ]),
        // Needs a server: `Scripts/with-postgres swift test --traits PostgreSQL --filter PostgresStorageTests`.
        .testTarget(
            name: "PostgresStorageTests",
            dependencies: [
                "DataStoreCore", "PostgresStorage", "DataStoreConformance", "StoreTestSupport",
                "InMemoryStorage", "SampleTrips",
                "datastore-test-process",
            ]),
        .testTarget(
            name: "TwoWaySyncTests",
            dependencies: [
                "DataStoreCore", "InMemoryStorage", "JSONFileStorage", "StoreTestSupport", "TwoWaySync",
            ]),
        // Containers over several stores, with every backend.
        .testTarget(
            name: "ModelContainerTests",
            dependencies: [
                "DataStoreCore", "DataStoreHistory", "InMemoryStorage", "JSONFileStorage", "StoreTestSupport",
                "datastore-test-process",
            ]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    // Require `any` for existential types (SE-0335).
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    // Only members of modules that a file imports are visible (SE-0444).
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    // Imports are internal unless marked `public import` (SE-0409).
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
