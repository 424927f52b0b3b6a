import ArgumentParser
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// `transit trip TRIP_ID`: where a trip goes and when it reaches each stop.
struct TripCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trip",
        _superCommandName: "transit",
        abstract: "Follow a trip: its stop calls in order, with times on a date, or its path as GeoJSON.",
        discussion: """
            The calls are in stop_sequence order with the feed's times (HH:MM:SS, past 24:00:00 after midnight; times the feed left empty were interpolated at import and are flagged), and arrival/departure as ISO 8601 on --date (default: today in the agency's time zone). A date the trip does not run on is said on stderr. --format geojson draws the trip: its shapes.txt shape (else its stops in order) as a LineString, and a Point per call.
            Examples: transit trip T1 --date 2026-03-02
                      transit departures --stop HBF --format json   (gives trip_id), then transit trip TRIP_ID
                      transit trip vilnius:123 --format geojson > trip.geojson
            """,
        version: TransitCommand.version
    )

    @Argument(help: ArgumentHelp("The trip: trip_id, or FEED:trip_id when several feeds have it.", valueName: "trip-id"))
    var tripID: String

    @Option(name: .long, help: ArgumentHelp("The service date, YYYY-MM-DD (default: today in the agency's time zone).", valueName: "date"))
    var date: String?

    @Option(name: .customLong("max-age"), parsing: .unconditional, help: ArgumentHelp("Apply stored realtime data only when its messages are at most this many minutes older than the trip's first departure (or later than it).", valueName: "minutes"))
    var maxAge: Int = RealtimeFreshness.defaultMaxAge

    @Flag(name: .customLong("no-realtime"), help: "Show the timetable, without the stored realtime data.")
    var noRealtime = false

    @OptionGroup var options: QueryOptions

    func validate() throws {
        if let date { _ = try StatsCommand.validDate(date) }
        guard maxAge >= 0 else { throw ValidationError("--max-age takes minutes, 0 or more") }
    }

    func run() throws {
        let transit = try options.open()
        let trip: TripDetails
        do {
            trip = try TripDetails(named: tripID, in: transit)
        } catch let error as TransitError {
            throw usageError(error)
        }
        let zone = trip.feed.timeZone
        let day = date.flatMap(StatsCommand.parseDate) ?? zone.localTime(of: Int(time(nil))).date
        if try !trip.runs(on: day, in: transit) {
            writeToStandardError("Note: trip \(trip.tripID) does not run on \(day) (\(try trip.serviceDescription(in: transit))); times are shown as if it did\n")
        }
        // Realtime predictions, when the stored messages are fresh for this run: at most --max-age
        // before its first departure (data about a run under way is always fresh).
        var changes: [Int: (delay: Int?, skipped: Bool)] = [:]
        if !noRealtime, let stored = try transit.realtimeFeeds()[trip.feed.key], let timestamp = stored.timestamp,
           let first = trip.calls.lazy.compactMap({ $0.departure ?? $0.arrival }).first {
            let start = zone.instant(of: first, on: day)
            if start - timestamp <= maxAge * 60 {
                changes = try trip.realtimeChanges(on: day, in: transit)
            } else {
                writeToStandardError("realtime data of \(trip.feed.name) is stale for this run: its messages are from \(zone.localTime(of: timestamp).iso8601), "
                    + "\(describeDuration(start - timestamp)) before the trip leaves (--max-age \(maxAge) min); showing the timetable\n")
            }
        }
        if !changes.isEmpty, changes.count == trip.calls.count, changes.values.allSatisfy(\.skipped) {
            writeToStandardError("Note: realtime data says trip \(trip.tripID) is cancelled on \(day)\n")
        }
        let calls = trip.calls.map { ShownCall(call: $0, trip: trip, date: day, change: changes[$0.sequence]) }
        switch options.format {
        case .geojson:
            writeToStandardOutput(try geoJSON(trip, calls, transit))
        case .table:
            var route = [trip.routeShortName, trip.routeLongName].filter { !$0.isEmpty }.joined(separator: " ")
            if route.isEmpty { route = trip.routeID }
            if TableStyle.current.color, let colors = try transit.routeColors(of: [RouteName(feed: trip.feed.name, routeID: trip.routeID)]).values.first {
                route = CellStyle.badge(RouteColors(color: colors.color, textColor: colors.textColor)).escape + route + CellStyle.reset
            }
            var header = "Trip \(trip.tripID)" + (transit.feeds.count > 1 ? " (\(trip.feed.name))" : "") + ": route \(route)"
            if let towards = trip.towards { header += " \(towards)" }
            if let direction = trip.directionID { header += ", direction \(direction)" + (trip.directionName.map { " (\($0))" } ?? "") }
            if let agency = trip.agencyName { header += ", \(agency)" }
            writeToStandardOutput(header + "\n" + (try trip.serviceDescription(in: transit)) + "; on \(day)\n\n")
            writeToStandardOutput(OutputRenderer.render(calls, as: .table, emptyMessage: "The trip has no stop times"))
        default:
            options.write(calls, from: transit, emptyMessage: "")
        }
    }

    /// The path as a LineString feature, then a Point per call.
    private func geoJSON(_ trip: TripDetails, _ calls: [ShownCall], _ transit: TransitDatabase) throws -> String {
        let path = try trip.path(in: transit)
        let coordinates = path.points.map { "[" + formatDecimal($0.longitude, decimals: 7) + ", " + formatDecimal($0.latitude, decimals: 7) + "]" }
        var properties = ["\"feed\": " + JSONText.quote(trip.feed.name), "\"trip_id\": " + JSONText.quote(trip.tripID),
                          "\"route_id\": " + JSONText.quote(trip.routeID),
                          "\"headsign\": " + (trip.destination.map(JSONText.quote) ?? "null"),
                          "\"path\": " + JSONText.quote(path.fromShape ? "shape" : "stops")]
        if path.fromShape, let shape = trip.shapeID { properties.append("\"shape_id\": " + JSONText.quote(shape)) }
        var features = ["    {\"type\": \"Feature\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": ["
                        + coordinates.joined(separator: ", ") + "]}, \"properties\": {" + properties.joined(separator: ", ") + "}}"]
        let points = OutputRenderer.render(calls, as: .geojson, emptyMessage: "")
        features += points.split(separator: "\n").filter { $0.hasPrefix("    {") }.map { String($0.hasSuffix(",") ? $0.dropLast() : $0[...]) }
        return "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}\n"
    }
}

extension TripCommand: DirectlyReadableCommand {
    static func withDefaults() -> TripCommand {
        var command = TripCommand()
        command.tripID = ""
        command.date = nil
        command.maxAge = RealtimeFreshness.defaultMaxAge
        command.noRealtime = false
        command.options = .withDefaults()
        return command
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        switch name {
        case "date": line.set(&date)
        case "max-age": line.set(&maxAge, negativeNumbers: true)
        case "no-realtime": line.setFlag(&noRealtime)
        default: options.read(option: name, from: &line)
        }
    }

    static var positionalArguments: ClosedRange<Int> { 1...1 }

    mutating func read(argument: String) {
        tripID = argument
    }

    mutating func validateAll() throws {
        try options.validateAll()
        try validate()
    }
}

/// A stop call as `trip` prints it.
struct ShownCall: OutputRecord {
    let call: TripCall
    let trip: TripDetails
    let date: ServiceDate
    /// The stored realtime change of this call, if any: its delay, or skipped.
    var change: (delay: Int?, skipped: Bool)?
    var feed: String { trip.feed.name }

    static let fieldNames = ["trip_id", "stop_sequence", "stop_id", "stop_name", "platform_code", "gtfs_arrival", "gtfs_departure",
                             "interpolated", "pickup_type", "drop_off_type", "service_date", "arrival", "departure",
                             "delay_s", "realtime", "skipped"]
    /// The moment of GTFS time `seconds` on the service date, predicted when realtime data delays it.
    private func instant(_ seconds: Int?) -> OutputValue {
        guard let seconds else { return .null }
        let zone = trip.feed.timeZone
        return .text(zone.localTime(of: zone.instant(of: seconds, on: date) + (change?.delay ?? 0)).iso8601)
    }
    var fieldValues: [OutputValue] {
        [.text(trip.tripID), .integer(call.sequence), .text(call.stopID), .text(call.stopName), call.platformCode.map { .text($0) } ?? .null,
         call.arrival.map { .text(GTFSTime.format($0)) } ?? .null, call.departure.map { .text(GTFSTime.format($0)) } ?? .null,
         .boolean(call.interpolated), call.pickupType.map { .integer($0) } ?? .null, call.dropOffType.map { .integer($0) } ?? .null,
         .text(date.description), instant(call.arrival), instant(call.departure),
         change?.delay.map { .integer($0) } ?? .null, .boolean(change != nil), .boolean(change?.skipped ?? false)]
    }
    var coordinate: (latitude: Double, longitude: Double)? {
        guard let latitude = call.latitude, let longitude = call.longitude else { return nil }
        return (latitude, longitude)
    }
    static let tableHeaders = ["Seq", "Arrives", "Departs", "Stop", "Platform", "Notes"]
    static let rightAligned: Set<Int> = [0]
    var tableCells: [String] {
        let mark = call.interpolated ? "~" : ""
        var notes: [String] = []
        if call.interpolated { notes.append("~ interpolated") }
        if call.pickupType == 1 { notes.append("no boarding") }
        if call.dropOffType == 1 { notes.append("no alighting") }
        if let change {
            if change.skipped {
                notes.append("skipped (realtime)")
            } else if let delay = change.delay {
                let minutes = Int((Double(delay) / 60).rounded())
                notes.append(minutes == 0 ? "on time (realtime)" : (minutes > 0 ? "+\(minutes)" : "\u{2212}\(-minutes)") + " min (realtime)")
            }
        }
        return [String(call.sequence), call.arrival.map { mark + GTFSTime.format($0) } ?? "", call.departure.map { mark + GTFSTime.format($0) } ?? "",
                call.stopName, call.platformCode ?? "", notes.joined(separator: ", ")]
    }
    static let truncatable: Set<Int> = [3]
    /// Interpolated times dim; the notes coloured by the realtime delay.
    var tableStyles: [CellStyle] {
        let time: CellStyle = call.interpolated ? .dim : .none
        let notes: CellStyle = change.map { $0.skipped ? .realtimeOnly : CellStyle.delay($0.delay) } ?? .none
        return [.none, time, time, .none, .none, notes]
    }
}
