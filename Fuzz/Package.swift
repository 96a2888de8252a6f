// swift-tools-version:6.1

import PackageDescription

// libFuzzer targets for the package's decoders. Built only with the fuzzer sanitizer, which supplies `main`:
// `Scripts/fuzz` builds and runs them. The checks themselves (`FuzzChecks`) are also a target of the root
// package, so that `swift test` replays the corpus and every saved crasher.
let package = Package(
    name: "DataStoreFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "DataStoreHistory", path: "..")],
    targets: [
        .target(
            name: "FuzzChecks",
            dependencies: [
                .product(name: "DataStoreCore", package: "DataStoreHistory"),
                .product(name: "DataStoreKit", package: "DataStoreHistory"),
                .product(name: "DataStoreModels", package: "DataStoreHistory"),
                .product(name: "InMemoryStorage", package: "DataStoreHistory"),
                .product(name: "JSONFileStorage", package: "DataStoreHistory"),
                .product(name: "TimeSeriesStorage", package: "DataStoreHistory"),
            ]),
        // A library-mode executable: libFuzzer supplies `main`.
        .executableTarget(
            name: "datastore-fuzz", dependencies: ["FuzzChecks"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
