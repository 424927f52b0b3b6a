import ArgumentParser
import GTFS

/// `--stop ID | --near LAT,LON [--radius M]`, shared by the commands that ask about the boarding
/// points of a stop or of a place (`departures`, `routes`).
struct StopChoiceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A stop: stop_id, or FEED:stop_id when several feeds have it, or its name (a station includes its platforms).", valueName: "id"))
    var stop: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The boarding points near LAT,LON.", valueName: "lat,lon"))
    var near: String?

    @Option(name: .long, parsing: .unconditional, help: "With --near: the radius in metres (default 500, above 0, at most 100000).")
    var radius: Double?

    func validate() throws {
        if stop != nil && near != nil { throw ValidationError("give either --stop or --near, not both") }
        if let stop, stop.isEmpty { throw ValidationError("--stop needs a stop_id") }
        if let near { _ = try Coordinate(near, option: "--near") }
        if let radius {
            guard near != nil else { throw ValidationError("--radius goes with --near; --stop takes the stop and, for a station, its platforms") }
            try validateRadius(radius)
        }
    }

    /// The keys of the boarding points chosen, or nil when neither option was given. An unknown or
    /// ambiguous stop is a usage error; a stop given by name is said on stderr (in `format`).
    func boardingKeys(in transit: TransitDatabase, format: OutputFormat) throws -> [Int]? {
        if let stop {
            do {
                let choice = try transit.stops(identifiedOrCalled: stop)
                if choice.isByName { AnswerNote(readAsName: choice, about: "--stop").write(for: format) }
                return try transit.boardingKeys(for: choice)
            } catch let error as TransitError {
                throw usageError(error)
            }
        }
        guard let near else { return nil }
        return try StopChoiceOptions.boardingKeys(near: try Coordinate(near, option: "--near"), radius: radius ?? 500, in: transit)
    }

    /// The keys of every boarding point within `radius` metres of `point`.
    static func boardingKeys(near point: Coordinate, radius: Double, in transit: TransitDatabase) throws -> [Int] {
        var nearby = NearbyStopsQuery(latitude: point.latitude, longitude: point.longitude)
        nearby.radius = radius
        nearby.platforms = true
        return try nearby.keysWithinRadius(on: transit)
    }

    /// "stop ID" or "500 m of LAT,LON", for messages.
    var place: String? {
        stop.map { "stop \($0)" } ?? near.map { "\(formatDistance(radius ?? 500)) of \($0)" }
    }
}

extension StopChoiceOptions: DirectlyReadableOptions {
    static func withDefaults() -> StopChoiceOptions {
        var options = StopChoiceOptions()
        options.stop = nil
        options.near = nil
        options.radius = nil
        return options
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        switch name {
        case "stop": line.set(&stop)
        case "near": line.set(&near, negativeNumbers: true)
        case "radius": line.set(&radius, negativeNumbers: true)
        default: nil
        }
    }
}
