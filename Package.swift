// swift-tools-version:6.0
import Foundation
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
        // GTFS-Realtime is protobuf: Apple's runtime, with the code generated from Protos/ committed
        // (the protoc plugin takes minutes to build; `make realtime-proto` regenerates it).
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // `transit serve` only (its own executable): Hummingbird 2, an HTTP server on SwiftNIO.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird's own SwiftNIO and service lifecycle (not new packages): transit-serve answers
        // with SwiftNIO's HTTP/1.1 handlers inside Hummingbird's server, which stops it gracefully.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The system SQLite (apt: libsqlite3-dev), through a module map and a tiny shim.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The system libpq (apt: libpq-dev), PostgreSQL's own client: synchronous like SQLite's API
        // (docs/architecture.md says why it was chosen over postgres-nio).
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // The system zlib (apt: zlib1g-dev), for transit-serve's gzip answers.
        .systemLibrary(name: "CGzip", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Fetch requests over SQLite: knows SQL and SQLite, nothing of transit.
        .target(name: "FetchRequest", dependencies: ["CSQLite"]),
        // The PostgreSQL store: a transit SQLite file stored on a server and swapped in atomically,
        // and read back. Linked only into transit-postgres, so the query commands never load libpq.
        .target(name: "PostgresStore", dependencies: ["FetchRequest", "CPostgres"]),
        // GTFS: reading feeds, the schema, the importer and the rider queries. No Foundation.
        .target(name: "GTFS", dependencies: ["FetchRequest"]),
        // Zip archives as feed sources. ZIPFoundation needs all of Foundation (and ICU), so it lives
        // apart, linked only into the import engine.
        .target(
            name: "GTFSZip",
            dependencies: ["GTFS", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        // GTFS-Realtime messages decoded into GTFS's realtime values; linked only into
        // transit-realtime, so the query commands never load the protobuf runtime.
        .target(
            name: "GTFSRealtime",
            dependencies: ["GTFS", .product(name: "SwiftProtobuf", package: "swift-protobuf")]
        ),
        // Files over HTTP(S) for the helpers (feeds, realtime messages): Foundation's URLSession
        // (FoundationNetworking, on libcurl: apt libcurl4-openssl-dev), so the query commands,
        // which never link it, start without Foundation.
        .target(name: "HTTPDownload", linkerSettings: [.linkedLibrary("curl")]),
        // The commands: options, validation, messages and output formats. `transit` runs them
        // from its command line; transit-serve asks them the same questions for HTTP clients.
        .target(
            name: "TransitCommands",
            dependencies: [
                "GTFS",
                "FetchRequest",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The thin command-line front end. `transit import` hands over to transit-import, so the
        // query commands start without loading Foundation.
        .executableTarget(
            name: "transit",
            dependencies: ["TransitCommands"],
            // `make build` (TRANSIT_STATIC=1, with --static-swift-stdlib) links one static
            // executable (with libsqlite3.a): no dynamic loader, no shared libraries, no
            // relocations at start; the whole process of a query took 0.67x the time. Test and
            // sanitizer builds stay dynamic (XCTest and the sanitizers' runtimes are shared).
            linkerSettings: ProcessInfo.processInfo.environment["TRANSIT_STATIC"] != nil ? [.unsafeFlags(["-static-executable"])] : []
        ),
        // The import engine `transit import` runs (not meant to be called directly); it downloads
        // feeds from URLs.
        .executableTarget(name: "transit-import", dependencies: ["GTFS", "GTFSZip", "HTTPDownload"]),
        // The PostgreSQL helper `transit import --db postgres://…` runs (not meant to be called
        // directly): imports through transit-import into a scratch file, then stores it on the server.
        .executableTarget(name: "transit-postgres", dependencies: ["GTFS", "PostgresStore", "TransitCommands"]),
        // The realtime reader `transit realtime` runs (not meant to be called directly).
        .executableTarget(name: "transit-realtime", dependencies: ["GTFS", "GTFSRealtime", "HTTPDownload", "PostgresStore"]),
        // The HTTP server `transit serve` runs: the commands' questions as a JSON API, and pages (a
        // map, a departures board) embedded in the binary. A library, so its parts are tested in
        // process (TransitServerTests); Hummingbird and SwiftNIO stay out of `transit`, so its
        // start-up does not move.
        .target(
            name: "TransitServer",
            dependencies: ["TransitCommands", "GTFS", "FetchRequest", "CGzip", .product(name: "HummingbirdCore", package: "hummingbird"),
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            exclude: ["Pages/leaflet/LICENSE", "Pages/leaflet/README.md"],
            resources: [.embedInCode("Pages")]
        ),
        // The server's executable (`transit serve` execs it; not meant to be called directly): only
        // starts TransitServer.
        .executableTarget(name: "transit-serve", dependencies: ["TransitServer", "PostgresStore"]),
        // In-process query benchmarks (make bench): the module next to raw C-API floors.
        .executableTarget(name: "transit-bench", dependencies: ["GTFS", "FetchRequest", "CSQLite"]),
        // Helpers shared by the test targets: temporary folders, fixture feeds, running the binary.
        .target(name: "TestSupport", dependencies: ["GTFS", "GTFSZip", "FetchRequest", "GTFSRealtime"], path: "Sources/TestSupport"),
        .testTarget(name: "FetchRequestTests", dependencies: ["FetchRequest", "TestSupport"]),
        .testTarget(name: "GTFSTests", dependencies: ["GTFS", "GTFSZip", "FetchRequest", "TestSupport"]),
        // The transit executable's own types (its direct command-line reader against the parser).
        .testTarget(name: "TransitCommandTests", dependencies: ["TransitCommands", "GTFS", "TestSupport"]),
        // The server's parts in process: endpoints, entity tags, query strings, the responder.
        .testTarget(name: "TransitServerTests", dependencies: ["TransitServer", "TransitCommands", "GTFS", "FetchRequest", "TestSupport",
                                                               .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                                               .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio")]),
        .testTarget(name: "TransitCLITests", dependencies: ["TestSupport", "GTFS", "GTFSRealtime", "PostgresStore", .product(name: "SwiftProtobuf", package: "swift-protobuf")]),
    ]
)

// The libFuzzer targets exist only for `make fuzz` and `make fuzz-predicate` (TRANSIT_FUZZ=1), built with -sanitize=fuzzer;
// libFuzzer supplies main(), so the file is parsed as a library.
if ProcessInfo.processInfo.environment["TRANSIT_FUZZ"] != nil {
    package.targets.append(.executableTarget(
        name: "fuzz-feed",
        dependencies: ["GTFS", "FetchRequest"],
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    ))
    package.targets.append(.executableTarget(
        name: "fuzz-predicate",
        dependencies: ["GTFS", "FetchRequest"],
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    ))
}
