import ArgumentParser
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// `transit departures`: what leaves soon from a stop or near a point.
struct DeparturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "departures",
        _superCommandName: "transit",
        abstract: "List what leaves soon from a stop or near a point.",
        discussion: """
            Times are wall-clock times in the agency time zone of the feeds asked (--at may also carry a UTC offset or Z; it must when those feeds are in different zones); each departure is shown in its own feed's zone. A departure is listed when its moment (noon of its service date minus 12 hours, plus its GTFS time) is within [--at, --at + --within]: trips of yesterday's service running past midnight count, and calendar_dates additions and removals apply. Rows where boarding is not allowed (pickup_type 1) and the last stop of each trip are left out. With realtime data read by `transit realtime` at most --max-age minutes older than --at, times are the predicted ones (delays, skipped stops, cancelled and new trips; JSON adds scheduled, delay_s, realtime); --cancelled lists what realtime cancels, marked, instead of leaving it out; --no-realtime shows the timetable.
            Examples: transit departures --stop HBF --at "2026-03-02 08:00"
                      transit departures --near 54.687,25.28 --radius 400 --within 10
            Many questions in one run: --input questions.csv (columns stop_id, or lat,lon[,radius]; then at[,within][,limit]; a missing or empty cell takes the flag's value; - reads standard input) answers every row, in order, each record with its row number as `input`.
            """,
        version: TransitCommand.version
    )

    @OptionGroup var stops: StopChoiceOptions

    @Option(name: .long, help: ArgumentHelp("Start of the window, \"YYYY-MM-DD HH:MM[:SS]\" in the agency's time zone, or with an offset (2025-06-01T08:00+02:00, ...Z) (default: now).", valueName: "time"))
    var at: String?

    @Option(name: .long, parsing: .unconditional, help: "Length of the window in minutes (0 to 10080).")
    var within: Int = 20

    @Option(name: .long, parsing: .unconditional, help: "At most this many departures (0: no limit).")
    var limit: Int = 20

    @Option(name: .customLong("max-age"), parsing: .unconditional, help: ArgumentHelp("Apply stored realtime data only when its messages are at most this many minutes older than --at.", valueName: "minutes"))
    var maxAge: Int = RealtimeFreshness.defaultMaxAge

    @Flag(name: .customLong("no-realtime"), help: "Show the timetable, without the stored realtime data.")
    var noRealtime = false

    @Flag(name: .long, help: "List the departures realtime data cancels (a cancelled trip, a skipped stop) at their timetable time, marked cancelled, instead of leaving them out.")
    var cancelled = false

    @OptionGroup var batch: BatchOptions

    @OptionGroup var options: QueryOptions

    func validate() throws {
        if batch.input != nil {
            if stops.stop != nil || stops.near != nil || stops.radius != nil {
                throw ValidationError("with --input the stops come from the file (columns stop_id, or lat,lon[,radius]): leave out --stop, --near and --radius")
            }
        } else if stops.stop == nil && stops.near == nil {
            throw ValidationError("give --stop ID or --near LAT,LON (or --input FILE)")
        }
        guard (0...10_080).contains(within) else { throw ValidationError("--within must be 0 to 10080 minutes (a week)") }
        try validateLimit(limit)
        if let at { _ = try WallClockTime(at) }
        guard maxAge >= 0 else { throw ValidationError("--max-age takes minutes, 0 or more") }
    }

    func run() throws {
        let transit = try options.open()
        let now = Int(time(nil))
        if let input = batch.input {
            try runBatch(input: input, columns: ["stop_id", "lat", "lon", "radius", "at", "within", "limit"], format: options.format,
                         in: transit, checkHeader: { columns in
                             let point = columns.contains("lat") && columns.contains("lon")
                             if !columns.contains("stop_id") && !point {
                                 throw BatchInputError("the header has neither stop_id nor lat and lon (departures reads stop_id or lat,lon[,radius], then at[,within][,limit])")
                             }
                         }, answer: { row in try departures(answering: row, now: now, in: transit) })
            return
        }
        let stopKeys = try stops.boardingKeys(in: transit, format: options.format) ?? []
        let answer = try departures(from: stopKeys, place: stops.place ?? "", at: at, atName: "--at",
                                    within: within, limit: limit, now: now, in: transit, sayingWhyEmpty: true)
        // A table shows identical departures once, counted; the other formats list each.
        let shown = options.format == .table ? ShownDeparture.mergingIdentical(answer.records) : answer.records
        options.write(shown, from: transit, emptyMessage: answer.emptyMessage)
        answer.note?.write(for: options.format)
        try writeAlerts(touching: answer, from: stopKeys, in: transit)
    }

    /// The answer to one row of `--input`: the departures from its stop_id, or from the stops
    /// within its radius (default 500 m) of its lat,lon, at its `at`, `within` and `limit` (an
    /// empty cell takes the flag's value).
    private func departures(answering row: BatchRow, now: Int, in transit: TransitDatabase) throws -> BatchAnswer<ShownDeparture> {
        let stopID = try row.text("stop_id")
        let hasPoint = try row.text("lat") != nil || row.text("lon") != nil
        let stopKeys: [Int]
        let place: String
        switch (stopID, hasPoint) {
        case (let stopID?, false):
            if try row.text("radius") != nil { throw BatchInputError("radius goes with lat,lon, not stop_id") }
            do {
                stopKeys = try transit.boardingKeys(forStopID: stopID)
            } catch let error as TransitError {
                throw BatchInputError(error.description)
            }
            place = "stop \(stopID)"
        case (nil, true):
            let point = try row.coordinate()
            let radius = try row.radius(else: 500)
            stopKeys = try StopChoiceOptions.boardingKeys(near: point, radius: radius, in: transit)
            place = "\(formatDistance(radius)) of \(formatDecimal(point.latitude, decimals: 6)),\(formatDecimal(point.longitude, decimals: 6))"
        case (.some, true): throw BatchInputError("give stop_id or lat,lon, not both")
        case (nil, false): throw BatchInputError("give stop_id, or lat and lon")
        }
        let within = try row.integer("within", range: 0...10_080, meaning: "a number of minutes from 0 to 10080") ?? within
        return try departures(from: stopKeys, place: place, at: try row.text("at") ?? at, atName: "at", within: within,
                              limit: try row.limit(else: limit), now: now, in: transit)
    }

    /// Under the table, the alerts active at --at that touch these departures: their stops (and
    /// stations), routes, trips, or those routes' types and agencies. The scope is worked out
    /// only when some alert is active at all; nothing for the other formats or --no-realtime.
    private func writeAlerts(touching answer: BatchAnswer<ShownDeparture>, from stopKeys: [Int], in transit: TransitDatabase) throws {
        guard options.format == .table, !noRealtime, !answer.records.isEmpty, let start = answer.start,
              try !AlertListing().run(on: transit, at: start).isEmpty else { return }
        var scope = try AlertListing.Scope.of(stopKeys: stopKeys, in: transit)
        // Each feed's routes and trips are those of its departures listed.
        for feedKey in scope.feeds.keys {
            let listed = answer.records.map(\.departure).filter { $0.feed == transit.feedName(ofKey: FeedKeys.base(of: feedKey)) }
            scope.feeds[feedKey]?.routeIDs = Set(listed.map(\.routeID))
            scope.feeds[feedKey]?.tripIDs = Set(listed.map(\.tripID))
        }
        var listing = AlertListing()
        listing.concerning = scope
        let alerts = try listing.run(on: transit, at: start)
        if !alerts.isEmpty {
            writeToStandardOutput("\n" + alerts.map { "Alert: " + ($0.header ?? $0.description ?? $0.alertID) }.joined(separator: "\n") + "\n")
        }
    }

    /// One question's answer: the departures from `stopKeys` in the window starting `at` (typed
    /// as `atName` in messages; nil: `now`).
    /// `sayingWhyEmpty`: an empty answer carries its reason (`AnswerNote`).
    private func departures(from stopKeys: [Int], place: String, at: String?, atName: String, within: Int, limit: Int, now: Int,
                            in transit: TransitDatabase, sayingWhyEmpty: Bool = false) throws -> BatchAnswer<ShownDeparture> {
        // The feeds being asked: those of the stops, in name order; their zone reads an offset-less --at.
        let askedFeeds = transit.selectedFeeds.filter { feed in stopKeys.contains { FeedKeys.feed(of: $0) == feed.key } }
        let zone = (askedFeeds.first ?? transit.selectedFeeds.first)?.timeZone ?? AgencyTimeZone(identifier: "UTC")!
        let start: Int
        if let at {
            let time = try WallClockTime(at, name: atName)
            if time.utcOffsetSeconds == nil {
                let zones = askedFeeds.map(\.timeZone.identifier).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
                if zones.count > 1 {
                    let feeds = askedFeeds.map { "\($0.name): \($0.timeZone.identifier)" }.joined(separator: ", ")
                    throw ValidationError("\(atName) has no UTC offset and the feeds asked are in different time zones (\(feeds)); give one, like \(time.example(offset: "+02:00")) or \(time.example(offset: "Z"))")
                }
            }
            start = time.instant(in: zone)
        } else {
            start = now
        }
        var query = DeparturesQuery(stopKeys: stopKeys, start: start, duration: within * 60)
        query.limit = limit
        query.includesCancelled = cancelled
        if !noRealtime {
            // Stored realtime data applies when its messages are at most --max-age older than --at.
            query.realtime = try RealtimeFreshness(maxAgeMinutes: maxAge).freshFeeds(among: askedFeeds, at: start, in: transit)
        }
        var departures = try query.run(on: transit).map { ShownDeparture(departure: $0, from: start, zone: transit.feed(named: $0.feed)?.timeZone ?? zone) }
        if TableStyle.current.color {
            let colors = try transit.routeColors(of: Set(departures.map { RouteName(feed: $0.feed, routeID: $0.departure.routeID) }))
            for index in departures.indices {
                let name = RouteName(feed: departures[index].feed, routeID: departures[index].departure.routeID)
                departures[index].routeColors = colors[name].map { RouteColors(color: $0.color, textColor: $0.textColor) }
            }
        }
        let local = zone.localTime(of: start)
        var note: AnswerNote?
        if departures.isEmpty && sayingWhyEmpty {
            let reason = try query.whyEmpty(on: transit, zone: zone)
            note = AnswerNote(reason, place: place, date: local.date, zones: { transit.feed(named: $0)?.timeZone ?? zone })
        }
        return BatchAnswer(records: departures, question: "\(place) at \(local.date) \(local.hourMinute)", start: start,
                           emptyMessage: "No departures from \(place) between \(local.hourMinute) and \(zone.localTime(of: start + within * 60).hourMinute) on \(local.date)",
                           note: note)
    }
}

extension DeparturesCommand: DirectlyReadableCommand {
    static func withDefaults() -> DeparturesCommand {
        var command = DeparturesCommand()
        command.stops = .withDefaults()
        command.at = nil
        command.within = 20
        command.limit = 20
        command.maxAge = RealtimeFreshness.defaultMaxAge
        command.noRealtime = false
        command.cancelled = false
        command.batch = .withDefaults()
        command.options = .withDefaults()
        return command
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        switch name {
        case "at": line.set(&at)
        case "within": line.set(&within, negativeNumbers: true)
        case "limit": line.set(&limit, negativeNumbers: true)
        case "max-age": line.set(&maxAge, negativeNumbers: true)
        case "no-realtime": line.setFlag(&noRealtime)
        case "cancelled": line.setFlag(&cancelled)
        default: stops.read(option: name, from: &line) ?? batch.read(option: name, from: &line) ?? options.read(option: name, from: &line)
        }
    }

    mutating func validateAll() throws {
        try stops.validateAll()
        try batch.validateAll()
        try options.validateAll()
        try validate()
    }
}

/// "25 min", "3 h 5 min", "1,822 days".
func describeDuration(_ seconds: Int) -> String {
    let magnitude = abs(seconds)
    if magnitude < 7200 { return "\(magnitude / 60) min" }
    if magnitude < 172_800 { return "\(magnitude / 3600) h \(magnitude % 3600 / 60) min" }
    return "\(formatCount(magnitude / 86_400)) days"
}
