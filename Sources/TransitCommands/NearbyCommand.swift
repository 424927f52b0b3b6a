import ArgumentParser
import GTFS

/// `transit nearby LAT LON`: stops near a point, nearest first.
struct NearbyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearby",
        _superCommandName: "transit",
        abstract: "List the stops near a point, nearest first.",
        discussion: """
            Distances are great-circle (haversine, Earth radius 6,371,008.8 m). By default the places a rider thinks of are listed: stations, and stops without a parent station (platforms are shown as their station). --platforms lists every boarding point instead.
            Examples: transit nearby 54.687 25.28 --radius 400
                      transit nearby 40.7553 -73.9875
                      transit nearby 54.687,25.28 --format geojson > stops.geojson
            Many points in one run: --input points.csv (columns lat,lon[,radius][,limit]; a missing or empty cell takes the flag's value; - reads standard input) answers every row, in order, each record with its row number as `input`.
                      transit nearby --input points.csv --radius 300 --format csv > answers.csv
            """,
        version: TransitCommand.version
    )

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The point: LAT LON, or LAT,LON, in decimal degrees.", valueName: "lat lon"))
    var point: [String] = []

    @Option(name: .long, parsing: .unconditional, help: "Search radius in metres (above 0, at most 100000).")
    var radius: Double = 500

    @OptionGroup var listing: StopListingOptions

    @OptionGroup var batch: BatchOptions

    @OptionGroup var options: QueryOptions

    func validate() throws {
        if batch.input != nil {
            guard try PositionalWords(point).words.isEmpty else { throw ValidationError("give either a point or --input, not both") }
        } else {
            _ = try Coordinate(words: point)
        }
        try validateRadius(radius)
    }

    func run() throws {
        let transit = try options.open()
        if let input = batch.input {
            try runBatch(input: input, columns: ["lat", "lon", "radius", "limit"], format: options.format, in: transit,
                         checkHeader: { columns in
                             for column in ["lat", "lon"] where !columns.contains(column) {
                                 throw BatchInputError("the header has no column \(column) (nearby reads lat,lon[,radius][,limit])")
                             }
                         }, answer: { row in
                             try stops(near: try row.coordinate(), radius: try row.radius(else: radius), limit: try row.limit(else: listing.limit), in: transit)
                         })
            return
        }
        let answer = try stops(near: try Coordinate(words: point), radius: radius, limit: listing.limit, in: transit)
        options.write(answer.records, from: transit, emptyMessage: answer.emptyMessage)
    }

    /// One question's answer: the stops within `radius` of `point`.
    private func stops(near point: Coordinate, radius: Double, limit: Int, in transit: TransitDatabase) throws -> BatchAnswer<NearbyStop> {
        var query = NearbyStopsQuery(latitude: point.latitude, longitude: point.longitude)
        query.radius = radius
        query.limit = limit
        query.platforms = listing.platforms
        let place = "\(formatDecimal(point.latitude, decimals: 6)), \(formatDecimal(point.longitude, decimals: 6))"
        return BatchAnswer(records: try query.run(on: transit), question: place,
                           emptyMessage: "No stops within \(formatDistance(radius)) of \(place)")
    }
}

extension NearbyCommand: DirectlyReadableCommand {
    static func withDefaults() -> NearbyCommand {
        var command = NearbyCommand()
        command.point = []
        command.radius = 500
        command.listing = .withDefaults()
        command.batch = .withDefaults()
        command.options = .withDefaults()
        return command
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        name == "radius" ? line.set(&radius, negativeNumbers: true)
            : listing.read(option: name, from: &line) ?? batch.read(option: name, from: &line) ?? options.read(option: name, from: &line)
    }

    static var positionalArguments: ClosedRange<Int> { 0...Int.max }

    /// The point's words may be negative numbers: the parser gives them every word it does not know.
    static var takesNegativeNumbers: Bool { true }

    mutating func read(argument: String) {
        point.append(argument)
    }

    mutating func validateAll() throws {
        try listing.validateAll()
        try batch.validateAll()
        try options.validateAll()
        try validate()
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
