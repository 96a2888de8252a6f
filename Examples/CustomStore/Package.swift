// swift-tools-version:6.1

import PackageDescription

// The example backend as an outside package would write it: it depends on DataStoreHistory and builds its store
// from the values and protocols (`DataStoreCore`) and the backend kit (`DataStoreKit`) alone, then proves it with
// the conformance suite. (The root package also builds these sources, so that `swift test` there runs them.)
let package = Package(
    name: "FilePerModelStorage",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [.library(name: "FilePerModelStorage", targets: ["FilePerModelStorage"])],
    dependencies: [.package(name: "DataStoreHistory", path: "../..")],
    targets: [
        .target(
            name: "FilePerModelStorage",
            dependencies: [
                .product(name: "DataStoreCore", package: "DataStoreHistory"),
                .product(name: "DataStoreKit", package: "DataStoreHistory"),
            ]),
        .testTarget(
            name: "FilePerModelStorageTests",
            dependencies: [
                "FilePerModelStorage", .product(name: "DataStoreConformance", package: "DataStoreHistory"),
            ]),
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
