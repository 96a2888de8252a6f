// swift-tools-version:6.0

import PackageDescription

// A nested package, so the root package keeps no dependencies. It depends on the root package by path and
// on the system SQLite library (`libsqlite3-dev`; `Benchmarks/setup` installs it when missing).
let package = Package(
    name: "DataStoreHistoryBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "DataStoreHistory", path: "..")],
    targets: [
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // glibc's allocation counters (malloc.h), for the memory scenario.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .executableTarget(
            name: "datastore-benchmarks",
            dependencies: [
                "CSQLite", "CMalloc",
                .product(name: "DataStoreCore", package: "DataStoreHistory"),
                .product(name: "InMemoryStorage", package: "DataStoreHistory"),
                .product(name: "JSONFileStorage", package: "DataStoreHistory"),
                .product(name: "TimeSeriesStorage", package: "DataStoreHistory"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
    ],
    swiftLanguageModes: [.v6]
)
