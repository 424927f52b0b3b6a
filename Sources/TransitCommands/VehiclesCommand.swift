import ArgumentParser
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// `transit vehicles`: where the vehicles are, from stored GTFS-Realtime vehicle positions.
struct VehiclesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vehicles",
        _superCommandName: "transit",
        abstract: "List vehicle positions read by `transit realtime`: all, near a point, of a route or of a trip.",
        discussion: """
            Positions are shown when the messages that brought them are at most --max-age minutes older than --at (default: now); older ones are said on stderr and left out. Some feeds send no coordinates (the New York subway gives only the stop and status): lat and lon are then null, and --near leaves such vehicles out. --format geojson draws the vehicles with a position as points.
            Examples: transit vehicles --near 54.687,25.28 --radius 1000
                      transit vehicles --route 1 --format json
            """,
        version: TransitCommand.version
    )

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Only vehicles within --radius of LAT,LON, nearest first.", valueName: "lat,lon"))
    var near: String?

    @Option(name: .long, parsing: .unconditional, help: "With --near: the radius in metres (default 500, above 0, at most 100000).")
    var radius: Double?

    @Option(name: .long, help: ArgumentHelp("Only vehicles serving this route: route_id, or FEED:route_id.", valueName: "id"))
    var route: String?

    @Option(name: .long, help: ArgumentHelp("Only the vehicles serving this trip: trip_id, or FEED:trip_id.", valueName: "id"))
    var trip: String?

    @Option(name: .long, help: ArgumentHelp("The time the positions must be fresh at, as departures' --at (default: now).", valueName: "time"))
    var at: String?

    @Option(name: .customLong("max-age"), parsing: .unconditional, help: ArgumentHelp("Show positions only from messages at most this many minutes older than --at.", valueName: "minutes"))
    var maxAge: Int = RealtimeFreshness.defaultMaxAge

    @OptionGroup var options: QueryOptions

    func validate() throws {
        if [near != nil, route != nil, trip != nil].filter({ $0 }).count > 1 { throw ValidationError("give one of --near, --route and --trip") }
        if let near { _ = try Coordinate(near, option: "--near") }
        if let radius {
            guard near != nil else { throw ValidationError("--radius goes with --near") }
            try validateRadius(radius)
        }
        if let at { _ = try WallClockTime(at) }
        guard maxAge >= 0 else { throw ValidationError("--max-age takes minutes, 0 or more") }
    }

    func run() throws {
        let transit = try options.open()
        var listing = VehicleListing()
        do {
            if let route { listing.route = try transit.route(named: route) }
            if let trip { listing.trip = try transit.trip(named: trip) }
        } catch let error as TransitError {
            throw usageError(error)
        }
        if let near {
            let point = try Coordinate(near, option: "--near")
            listing.near = (point.latitude, point.longitude, radius ?? 500)
        }
        let zone = transit.selectedFeeds.first?.timeZone ?? AgencyTimeZone(identifier: "UTC")!
        let instant = try at.map { try WallClockTime($0).instant(in: zone) } ?? Int(time(nil))
        var fresh: [Int] = []
        let timestamps = try VehicleListing.timestamps(in: transit)
        // In the feeds' order (by name), so stale feeds are named in the same order every run.
        for feed in transit.selectedFeeds {
            guard let timestamp = timestamps[feed.key] else { continue }
            if instant - timestamp <= maxAge * 60 {
                fresh.append(feed.key)
            } else {
                writeToStandardError("vehicle positions of \(feed.name) are stale: their messages are from \(feed.timeZone.localTime(of: timestamp).iso8601), "
                    + "\(describeDuration(instant - timestamp)) before the time asked (--max-age \(maxAge) min); not shown\n")
            }
        }
        let vehicles = try listing.run(on: transit, feeds: fresh).map { ShownVehicle(vehicle: $0, zone: zone) }
        options.write(vehicles, from: transit, emptyMessage: "No vehicle positions" + (near.map { " within \(formatDistance(radius ?? 500)) of \($0)" } ?? ""))
    }
}

extension VehiclesCommand: DirectlyReadableCommand {
    static func withDefaults() -> VehiclesCommand {
        var command = VehiclesCommand()
        command.near = nil
        command.radius = nil
        command.route = nil
        command.trip = nil
        command.at = nil
        command.maxAge = RealtimeFreshness.defaultMaxAge
        command.options = .withDefaults()
        return command
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        switch name {
        case "near": line.set(&near, negativeNumbers: true)
        case "radius": line.set(&radius, negativeNumbers: true)
        case "route": line.set(&route)
        case "trip": line.set(&trip)
        case "at": line.set(&at)
        case "max-age": line.set(&maxAge, negativeNumbers: true)
        default: options.read(option: name, from: &line)
        }
    }

    mutating func validateAll() throws {
        try options.validateAll()
        try validate()
    }
}

/// A vehicle as `vehicles` prints it.
struct ShownVehicle: OutputRecord {
    let vehicle: VehiclePosition
    let zone: AgencyTimeZone
    var feed: String { vehicle.feed }

    static let fieldNames = ["vehicle_id", "label", "trip_id", "route_id", "lat", "lon", "bearing", "stop_id", "status", "timestamp", "distance_m"]
    var fieldValues: [OutputValue] {
        func text(_ value: String?) -> OutputValue { value.map { .text($0) } ?? .null }
        return [text(vehicle.vehicleID), text(vehicle.label), text(vehicle.tripID), text(vehicle.routeID),
                vehicle.latitude.map { .number($0, decimals: 6) } ?? .null, vehicle.longitude.map { .number($0, decimals: 6) } ?? .null,
                vehicle.bearing.map { .number($0, decimals: 1) } ?? .null, text(vehicle.stopID), text(vehicle.status),
                vehicle.timestamp.map { .text(zone.localTime(of: $0).iso8601) } ?? .null, vehicle.distance.map { .number($0, decimals: 1) } ?? .null]
    }
    var coordinate: (latitude: Double, longitude: Double)? {
        guard let latitude = vehicle.latitude, let longitude = vehicle.longitude else { return nil }
        return (latitude, longitude)
    }
    static let tableHeaders = ["Vehicle", "Route", "Trip", "Status", "Stop", "Position", "Distance"]
    static let omittedWhenEmpty: Set<Int> = [5, 6]
    var tableCells: [String] {
        let position = vehicle.latitude.flatMap { lat in vehicle.longitude.map { formatDecimal(lat, decimals: 5) + ", " + formatDecimal($0, decimals: 5) } } ?? ""
        return [vehicle.label ?? vehicle.vehicleID ?? "", vehicle.routeID ?? "", vehicle.tripID ?? "", vehicle.status.map { String($0.lowercased().map { $0 == "_" ? " " : $0 }) } ?? "",
                vehicle.stopID ?? "", position, vehicle.distance.map(formatDistance) ?? ""]
    }
}
