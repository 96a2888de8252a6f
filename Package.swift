// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "DataStoreHistory",
    // `Mutex` (Synchronization) needs these minimums on Apple platforms; Linux has no minimum.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // The one import app code needs, as `import SwiftData`: the model layer and the default stores.
        .library(name: "DataStoreHistory", targets: ["DataStoreHistory"]),
        // Values and protocols: what SwiftData's module shows an app and a store author.
        .library(name: "DataStoreCore", targets: ["DataStoreCore"]),
        // The model layer: containers, contexts, typed history, migration plans.
        .library(name: "DataStoreModels", targets: ["DataStoreModels"]),
        .library(name: "InMemoryStorage", targets: ["InMemoryStorage"]),
        .library(name: "JSONFileStorage", targets: ["JSONFileStorage"]),
        .library(name: "TimeSeriesStorage", targets: ["TimeSeriesStorage"]),
        // The backend kit: what a store author builds on (planner, snapshot table and query, history query,
        // predicate pushdown, generic history types, the codec, the change feed, the file-store scaffold).
        .library(name: "DataStoreKit", targets: ["DataStoreKit"]),
        .library(name: "DataStoreConformance", targets: ["DataStoreConformance"]),
        // Sync of a device's store with a server store (PostgreSQL, or any history-providing store).
        .library(name: "DataStoreSync", targets: ["DataStoreSync"]),
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
        // The three layers (Docs/Architecture.md): values and protocols, the backend kit, the model layer.
        .target(name: "DataStoreCore"),
        .target(name: "DataStoreKit", dependencies: ["DataStoreCore", "CFileStatus"]),
        // A file's identity and size without its timestamps (`statx` on Linux; see the header for why).
        .target(name: "CFileStatus"),
        .target(name: "DataStoreModels", dependencies: ["DataStoreCore", "DataStoreKit"]),
        .target(name: "InMemoryStorage", dependencies: ["DataStoreCore", "DataStoreKit"]),
        .target(
            name: "DataStoreHistory",
            dependencies: ["DataStoreCore", "DataStoreModels", "InMemoryStorage", "JSONFileStorage"]),
        .target(name: "JSONFileStorage", dependencies: ["DataStoreCore", "DataStoreKit"]),
        .target(name: "TimeSeriesStorage", dependencies: ["DataStoreCore", "DataStoreKit"]),
        // PostgreSQL's C client library, through pkg-config; only linked with the `PostgreSQL` trait.
        .systemLibrary(
            name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .target(
            name: "PostgresStorage",
            dependencies: [
                "DataStoreCore", "DataStoreKit",
                .target(name: "CLibPQ", condition: .when(traits: ["PostgreSQL"])),
            ]),
        // The conformance suite backend authors run from their tests; independent of any test framework.
        .target(name: "DataStoreConformance", dependencies: ["DataStoreCore"]),
        // The sync engine: built on the store protocols and their history only; it imports no backend.
        .target(name: "DataStoreSync", dependencies: ["DataStoreCore", "DataStoreModels"]),

        // The `datastore` command-line tool: its logic in a library, so it can be tested.
        .target(
            name: "DataStoreTool",
            dependencies: [
                "DataStoreModels",
                "DataStoreCore", "DataStoreKit", "JSONFileStorage", "TimeSeriesStorage",
                "PostgresStorage", "DataStoreSync",
            ]),
        .executableTarget(name: "datastore", dependencies: ["DataStoreTool"]),

        // The seeds' models and history functions, shared by the flagship example and the tests.
        .target(
            name: "SampleTrips", dependencies: ["DataStoreModels", "DataStoreCore"],
            path: "Examples/SampleTrips"),
        .executableTarget(
            name: "sample-trips",
            dependencies: ["DataStoreModels", "DataStoreCore", "JSONFileStorage", "SampleTrips"],
            path: "Examples/sample-trips", exclude: ["README.md"]
        ),

        .executableTarget(
            name: "sensor-log", dependencies: ["DataStoreModels", "DataStoreCore", "TimeSeriesStorage"],
            path: "Examples/sensor-log", exclude: ["README.md"]),

        .executableTarget(
            name: "trip-sync",
            dependencies: [
                "DataStoreModels",
                "DataStoreCore", "JSONFileStorage", "TimeSeriesStorage", "SampleTrips", "DataStoreKit",
            ],
            path: "Examples/trip-sync", exclude: ["README.md"]),

        // Two devices syncing with a PostgreSQL server through DataStoreSync.
        .executableTarget(
            name: "postgres-sync",
            dependencies: [
                "DataStoreCore", "JSONFileStorage", "PostgresStorage", "DataStoreSync", "SampleTrips",
            ],
            path: "Examples/postgres-sync", exclude: ["README.md"]),

        // A fourth backend, written as the worked example of Docs/WritingABackend.md.
        .target(
            name: "FilePerModelStorage", dependencies: ["DataStoreCore", "DataStoreKit"],
            path: "Examples/CustomStore/Sources/FilePerModelStorage"),
        .testTarget(
            name: "FilePerModelStorageTests", dependencies: ["FilePerModelStorage", "DataStoreConformance"],
            path: "Examples/CustomStore/Tests/FilePerModelStorageTests"),

        .testTarget(
            name: "DataStoreCoreTests",
            dependencies: ["DataStoreKit", "DataStoreModels", "DataStoreCore", "StoreTestSupport"]),
        .testTarget(
            name: "InMemoryStorageTests",
            dependencies: [
                "DataStoreModels", "DataStoreCore", "InMemoryStorage", "DataStoreConformance", "SampleTrips",
            ]),
        // The suite itself: broken stores it must catch.
        .testTarget(
            name: "DataStoreConformanceTests",
            dependencies: [
                "DataStoreKit",
                "DataStoreCore", "DataStoreConformance", "InMemoryStorage", "JSONFileStorage",
                "TimeSeriesStorage",
            ]),
        // The multi-process tests' helper process and their shared harness.
        .target(
            name: "StoreTestSupport",
            dependencies: [
                "DataStoreKit", "DataStoreModels", "DataStoreCore", "SampleTrips", "FuzzChecks",
                "JSONFileStorage", "DataStoreSync",
            ],
            path: "Tests/StoreTestSupport"),
        .executableTarget(
            name: "datastore-test-process",
            dependencies: [
                "DataStoreCore", "DataStoreHistory", "JSONFileStorage", "TimeSeriesStorage", "SampleTrips",
                "StoreTestSupport", "PostgresStorage", "DataStoreSync",
            ],
            path: "Tests/StoreProcessHelper"),
        .testTarget(
            name: "DataStoreKitTests", dependencies: ["DataStoreCore", "DataStoreKit", "CFileStatus"]),
        .testTarget(
            name: "JSONFileStorageTests",
            dependencies: [
                "DataStoreCore", "JSONFileStorage", "DataStoreKit", "DataStoreConformance", "SampleTrips",
                "StoreTestSupport", "datastore-test-process",
            ],
            // Stores written by earlier versions, which must keep opening; read through #filePath.
            exclude: ["StoreFixtures"]),
        .testTarget(
            name: "TimeSeriesStorageTests",
            dependencies: [
                "DataStoreModels",
                "DataStoreCore", "TimeSeriesStorage", "DataStoreKit", "DataStoreConformance",
                "StoreTestSupport",
                "datastore-test-process",
            ]),
        .testTarget(
            name: "DataStoreToolTests",
            dependencies: [
                "DataStoreTool", "DataStoreCore", "DataStoreModels", "JSONFileStorage", "StoreTestSupport",
                "InMemoryStorage", "DataStoreSync",
                "datastore",
                "sample-trips",
                "datastore-test-process",
            ]),
        // Needs a server: `Scripts/with-postgres swift test --traits PostgreSQL --filter PostgresStorageTests`.
        .testTarget(
            name: "PostgresStorageTests",
            dependencies: [
                "DataStoreModels",
                "DataStoreCore", "PostgresStorage", "DataStoreConformance", "StoreTestSupport",
                "InMemoryStorage", "SampleTrips",
                "datastore-test-process",
            ]),
        .testTarget(
            name: "DataStoreSyncTests",
            dependencies: [
                "DataStoreSync", "DataStoreModels", "DataStoreCore", "InMemoryStorage", "JSONFileStorage",
                "StoreTestSupport",
            ]),
        // The fuzz targets' checks (Fuzz/, a package of its own that builds them with libFuzzer), and the test that
        // replays their corpus and every saved crasher on each `swift test`.
        .target(
            name: "FuzzChecks",
            dependencies: [
                "DataStoreCore", "DataStoreKit", "DataStoreModels", "InMemoryStorage", "JSONFileStorage",
                "TimeSeriesStorage",
            ],
            path: "Fuzz/Sources/FuzzChecks"),
        .testTarget(
            name: "FuzzReplayTests", dependencies: ["FuzzChecks"], path: "Fuzz/Tests/FuzzReplayTests"),
        // Containers over several stores, with every backend.
        .testTarget(
            name: "ModelContainerTests",
            dependencies: [
                "DataStoreKit", "DataStoreModels", "SampleTrips", "TimeSeriesStorage",
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
