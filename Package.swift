// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "transit",
    products: [
        .executable(name: "transit", targets: ["transit"]),
        .library(name: "FetchRequest", targets: ["FetchRequest"]),
        .library(name: "GTFS", targets: ["GTFS"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
    ],
    targets: [
        // The system SQLite (apt: libsqlite3-dev), through a module map and a tiny shim.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Fetch requests over SQLite: knows SQL and SQLite, nothing of transit.
        .target(name: "FetchRequest", dependencies: ["CSQLite"]),
        // GTFS: reading feeds, the schema, the importer and the rider queries.
        .target(
            name: "GTFS",
            dependencies: [
                "FetchRequest",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // The thin command-line front end.
        .executableTarget(
            name: "transit",
            dependencies: [
                "GTFS",
                "FetchRequest",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Helpers shared by the test targets: temporary folders, fixture feeds, running the binary.
        .target(name: "TestSupport", dependencies: ["GTFS", "FetchRequest"], path: "Sources/TestSupport"),
        .testTarget(name: "FetchRequestTests", dependencies: ["FetchRequest", "TestSupport"]),
        .testTarget(name: "GTFSTests", dependencies: ["GTFS", "FetchRequest", "TestSupport"]),
        .testTarget(name: "TransitCLITests", dependencies: ["TestSupport"]),
    ]
)
