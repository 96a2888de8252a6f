// swift-tools-version:6.1

import PackageDescription

// A nested package, so the root package keeps no dependencies. It depends on the root package by path and
// on the system SQLite and libpq libraries (`libsqlite3-dev`, `libpq-dev`; `Benchmarks/setup` installs them when
// missing).
let package = Package(
    name: "DataStoreHistoryBenchmarks",
    platforms: [.macOS(.v15)],
    // The root package with its PostgreSQL backend: the benchmarks link libpq (`libpq-dev`), and measure the
    // PostgreSQL store when DATASTORE_POSTGRES_URL names a server (`Scripts/with-postgres`).
    dependencies: [
        .package(name: "DataStoreHistory", path: "..", traits: ["PostgreSQL"]),
        // The peer scenarios' GRDB (7.x builds on Linux with the system SQLite).
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // libpq, for the PostgreSQL scenario's hand-written baseline.
        .systemLibrary(
            name: "CPQ", path: "Sources/CPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        // glibc's allocation counters (malloc.h), for the memory scenario.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // Counts heap allocations (glibc): the allocation gates of the `allocations` scenario.
        .target(name: "CAllocationCounter", path: "Sources/CAllocationCounter"),
        .executableTarget(
            name: "datastore-benchmarks",
            dependencies: [
                "CSQLite", "CMalloc", "CPQ", "CAllocationCounter",
                .product(name: "DataStoreCore", package: "DataStoreHistory"),
                .product(name: "DataStoreModels", package: "DataStoreHistory"),
                .product(name: "DataStoreKit", package: "DataStoreHistory"),
                .product(name: "InMemoryStorage", package: "DataStoreHistory"),
                .product(name: "JSONFileStorage", package: "DataStoreHistory"),
                .product(name: "TimeSeriesStorage", package: "DataStoreHistory"),
                .product(name: "PostgresStorage", package: "DataStoreHistory"),
                .product(name: "DataStoreSync", package: "DataStoreHistory"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
    ],
    swiftLanguageModes: [.v6]
)
