import ArgumentParser
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// `transit departures`: what leaves soon from a stop or near a point.
struct DeparturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "departures",
        abstract: "List what leaves soon from a stop or near a point.",
        discussion: """
            Times are wall-clock times in the feed's agency time zone. A departure is listed when its moment (noon of its service date minus 12 hours, plus its GTFS time) is within [--at, --at + --within]: trips of yesterday's service running past midnight count, and calendar_dates additions and removals apply. Rows where boarding is not allowed (pickup_type 1) and the last stop of each trip are left out.
            Examples: transit departures --stop HBF --at "2026-03-02 08:00"
                      transit departures --near 54.687,25.28 --radius 400 --within 10
            """
    )

    @Option(name: .long, help: ArgumentHelp("Departures from this stop_id (a station includes its platforms).", valueName: "id"))
    var stop: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Departures from the boarding points near LAT,LON.", valueName: "lat,lon"))
    var near: String?

    @Option(name: .long, parsing: .unconditional, help: "With --near: the radius in metres (default 500, above 0, at most 100000).")
    var radius: Double?

    @Option(name: .long, help: ArgumentHelp("Start of the window, \"YYYY-MM-DD HH:MM[:SS]\" in the agency's time zone (default: now).", valueName: "time"))
    var at: String?

    @Option(name: .long, parsing: .unconditional, help: "Length of the window in minutes (0 to 10080).")
    var within: Int = 20

    @Option(name: .long, parsing: .unconditional, help: "At most this many departures (0: no limit).")
    var limit: Int = 20

    @OptionGroup var options: QueryOptions

    func validate() throws {
        switch (stop, near) {
        case (nil, nil): throw ValidationError("give --stop ID or --near LAT,LON")
        case (.some, .some): throw ValidationError("give either --stop or --near, not both")
        default: break
        }
        if let stop, stop.isEmpty { throw ValidationError("--stop needs a stop_id") }
        if let near { _ = try Coordinate(near, option: "--near") }
        if let radius {
            guard near != nil else { throw ValidationError("--radius goes with --near; --stop takes the stop and, for a station, its platforms") }
            try validateRadius(radius)
        }
        guard (0...10_080).contains(within) else { throw ValidationError("--within must be 0 to 10080 minutes (a week)") }
        try validateLimit(limit)
        if let at { _ = try WallClockTime(at) }
    }

    func run() throws {
        let transit = try options.open()
        let stopKeys: [Int]
        if let stop {
            do {
                stopKeys = try transit.boardingKeys(forStopID: stop)
            } catch let error as TransitError {
                throw ValidationError(error.description)
            }
        } else {
            let point = try Coordinate(near!, option: "--near")
            var nearby = NearbyStopsQuery(latitude: point.latitude, longitude: point.longitude)
            nearby.radius = radius ?? 500
            nearby.platforms = true
            nearby.limit = 0
            stopKeys = try nearby.run(on: transit.database).map(\.stop.key)
        }
        let start = try at.map { try WallClockTime($0).instant(in: transit.timeZone) } ?? Int(time(nil))
        var query = DeparturesQuery(stopKeys: stopKeys, start: start, duration: within * 60)
        query.limit = limit
        let departures = try query.run(on: transit).map { ShownDeparture(departure: $0, from: start, zone: transit.timeZone) }
        let local = transit.timeZone.localTime(of: start)
        let place = stop.map { "stop \($0)" } ?? "\(formatDistance(radius ?? 500)) of \(near!)"
        options.write(departures, emptyMessage: "No departures from \(place) between \(local.hourMinute) and \(transit.timeZone.localTime(of: start + within * 60).hourMinute) on \(local.date)")
    }
}

/// A time typed by the user, `YYYY-MM-DD HH:MM[:SS]` (or with a `T`), read in the agency's zone.
struct WallClockTime {
    let date: ServiceDate
    let hour: Int
    let minute: Int
    let second: Int

    init(_ text: String) throws {
        let parts = text.trimmingSpaces.split(whereSeparator: { $0 == " " || $0 == "T" })
        let problem = ValidationError("--at takes \"YYYY-MM-DD HH:MM\" or \"YYYY-MM-DD HH:MM:SS\", got '\(text)'")
        guard parts.count == 2 else { throw problem }
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard day.count == 3, clock.count == 2 || clock.count == 3,
              day[0].count == 4, day[1].count == 2, day[2].count == 2, clock.allSatisfy({ $0.count == 2 }),
              (day + clock).allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(day[0]), let month = Int(day[1]), let dayOfMonth = Int(day[2]),
              let hour = Int(clock[0]), let minute = Int(clock[1]) else { throw problem }
        let second = clock.count == 3 ? Int(clock[2]) ?? 99 : 0
        guard let date = ServiceDate(year: year, month: month, day: dayOfMonth) else {
            throw ValidationError("--at: \(parts[0]) is not a date")
        }
        guard hour < 24, minute < 60, second < 60 else { throw ValidationError("--at: \(parts[1]) is not a time of day") }
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    func instant(in zone: AgencyTimeZone) -> Int {
        zone.instant(ofLocal: date, hour: hour, minute: minute, second: second)
    }
}

/// A departure as `departures` prints it.
struct ShownDeparture: OutputRecord {
    let departure: Departure
    let minutes: Int
    let local: LocalTime

    init(departure: Departure, from start: Int, zone: AgencyTimeZone) {
        self.departure = departure
        // Whole minutes from --at, rounded down.
        let seconds = departure.instant - start
        minutes = seconds >= 0 ? seconds / 60 : -((-seconds + 59) / 60)
        local = zone.localTime(of: departure.instant)
    }

    static let fieldNames = ["stop_id", "stop_name", "trip_id", "route_id", "route", "headsign", "service_date",
                             "gtfs_time", "departure", "minutes"]
    var fieldValues: [OutputValue] {
        [.text(departure.stopID), .text(departure.stopName), .text(departure.tripID), .text(departure.routeID),
         .text(departure.route), .text(departure.headsign), .text(departure.serviceDate.description),
         .text(GTFSTime.format(departure.gtfsTime)), .text(local.iso8601), .integer(minutes)]
    }
    var coordinate: (latitude: Double, longitude: Double)? { nil }
    static let tableHeaders = ["Time", "In", "Route", "Headsign", "Stop", "Platform"]
    static let rightAligned: Set<Int> = [1]
    var tableCells: [String] {
        [local.hourMinute, "\(minutes) min", departure.route, departure.headsign, departure.stopName, departure.platformCode ?? ""]
    }
}
