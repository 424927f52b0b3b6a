import ArgumentParser
import GTFS

/// `transit nearby LAT LON`: stops near a point, nearest first.
struct NearbyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearby",
        abstract: "List the stops near a point, nearest first.",
        discussion: """
            Distances are great-circle (haversine, Earth radius 6,371,008.8 m). By default the places a rider thinks of are listed: stations, and stops without a parent station (platforms are shown as their station). --platforms lists every boarding point instead.
            Examples: transit nearby 54.687 25.28 --radius 400
                      transit nearby 40.7553 -73.9875
                      transit nearby 54.687,25.28 --format geojson > stops.geojson
            """
    )

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The point: LAT LON, or LAT,LON, in decimal degrees.", valueName: "lat lon"))
    var point: [String] = []

    @Option(name: .long, parsing: .unconditional, help: "Search radius in metres (above 0, at most 100000).")
    var radius: Double = 500

    @OptionGroup var listing: StopListingOptions

    @OptionGroup var options: QueryOptions

    func validate() throws {
        _ = try Coordinate(words: point)
        try validateRadius(radius)
    }

    func run() throws {
        let coordinate = try Coordinate(words: point)
        let transit = try options.open()
        var query = NearbyStopsQuery(latitude: coordinate.latitude, longitude: coordinate.longitude)
        query.radius = radius
        query.limit = listing.limit
        query.platforms = listing.platforms
        let stops = try query.run(on: transit)
        options.write(stops, from: transit, emptyMessage: "No stops within \(formatDistance(radius)) of \(formatDecimal(coordinate.latitude, decimals: 6)), \(formatDecimal(coordinate.longitude, decimals: 6))")
    }
}

extension NearbyStop: OutputRecord {
    static let fieldNames = ["stop_id", "name", "lat", "lon", "distance_m"]
    var fieldValues: [OutputValue] {
        [.text(stop.stopID), .text(stop.name), stop.latitude.map { .number($0, decimals: 7) } ?? .null,
         stop.longitude.map { .number($0, decimals: 7) } ?? .null, .number(distance, decimals: 2)]
    }
    var coordinate: (latitude: Double, longitude: Double)? {
        guard let latitude = stop.latitude, let longitude = stop.longitude else { return nil }
        return (latitude, longitude)
    }
    static let tableHeaders = ["Distance", "Stop", "stop_id"]
    static let rightAligned: Set<Int> = [0]
    var tableCells: [String] {
        [formatDistance(distance), stop.name + (stop.locationType == 1 ? " (station)" : stop.platformCode.map { " (platform \($0))" } ?? ""), stop.stopID]
    }
}
