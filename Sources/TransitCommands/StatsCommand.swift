import ArgumentParser
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// `transit stats`: an overview of the imported feed.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        _superCommandName: "transit",
        abstract: "Show an overview of the feeds: rows, dates, times, the busiest stops.",
        discussion: """
            Rows per table, the service date range, the earliest and latest departure time, and the ten busiest stops by departures on --date (default: today in the agency's time zone, or the feed's first service date when today is outside it). With --stop ID, the departures of that stop per hour of the service day, as a bar chart (numbers in JSON and CSV).
            """,
        version: TransitCommand.version
    )

    @Option(name: .long, help: ArgumentHelp("The service date for the busiest stops and the hourly chart, YYYY-MM-DD.", valueName: "date"))
    var date: String?

    @Option(name: .long, help: ArgumentHelp("Also chart this stop's departures per hour (a station includes its platforms).", valueName: "id"))
    var stop: String?

    @OptionGroup var options: QueryOptions

    func validate() throws {
        if let date { _ = try StatsCommand.validDate(date) }
        if options.format == .geojson { throw ValidationError("stats has no places to map: use --format table, json or csv") }
    }

    /// `--date`'s value read, or a usage error saying whether it is not in the form YYYY-MM-DD or
    /// not a date of the calendar (2026-02-30), as `--at` says it.
    static func validDate(_ text: String, option: String = "--date") throws -> ServiceDate {
        if let date = parseDate(text) { return date }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, parts.map(\.count) == [4, 2, 2], parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) {
            throw ValidationError("\(option): \(text) is not a date")
        }
        throw ValidationError("\(option) takes YYYY-MM-DD, got '\(text)'")
    }

    static func parseDate(_ text: String) -> ServiceDate? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2 else { return nil }
        return ServiceDate(gtfs: parts.joined())
    }

    func run() throws {
        let transit = try options.open()
        let statistics = try FeedStatistics(transit: transit)
        let zone = transit.selectedFeeds.first?.timeZone ?? AgencyTimeZone(identifier: "UTC")!
        var day = date.flatMap(StatsCommand.parseDate) ?? zone.localTime(of: Int(time(nil))).date
        if date == nil, let range = statistics.serviceDates, !range.contains(day) { day = range.lowerBound }
        let busiest = try FeedStatistics.busiestStops(on: day, limit: 10, transit: transit)
        var hourly: [(hour: Int, departures: Int)]?
        if let stop {
            do {
                hourly = try FeedStatistics.departuresPerHour(on: day, stopKeys: try transit.boardingKeys(forStopID: stop), transit: transit)
            } catch let error as TransitError {
                throw usageError(error)
            }
        }
        let report = StatsReport(feeds: transit.selectedFeeds.map(\.name), showFeed: transit.feeds.count > 1, statistics: statistics, date: day, busiest: busiest, stop: stop, hourly: hourly)
        switch options.format {
        case .json: writeToStandardOutput(report.json)
        case .csv: writeToStandardOutput(report.csv)
        default: writeToStandardOutput(report.table)
        }
    }
}

extension StatsCommand: DirectlyReadableCommand {
    static func withDefaults() -> StatsCommand {
        var command = StatsCommand()
        command.date = nil
        command.stop = nil
        command.options = .withDefaults()
        return command
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        switch name {
        case "date": line.set(&date)
        case "stop": line.set(&stop)
        default: options.read(option: name, from: &line)
        }
    }

    mutating func validateAll() throws {
        try options.validateAll()
        try validate()
    }
}

/// The overview in each format.
struct StatsReport {
    /// The names of the feeds counted.
    let feeds: [String]
    /// The database holds several feeds: stops are written `FEED:ID`.
    let showFeed: Bool
    let statistics: FeedStatistics
    let date: ServiceDate
    let busiest: [(feed: String, stopID: String, name: String, departures: Int)]
    let stop: String?
    let hourly: [(hour: Int, departures: Int)]?

    var table: String {
        var lines = ["Feeds  " + (feeds.isEmpty ? "none" : feeds.joined(separator: ", ")), "", "Rows"]
        let width = FeedStatistics.tables.map(\.count).max() ?? 0
        for (table, rows) in statistics.rowCounts {
            let count = formatCount(rows)
            lines.append("  " + table + String(repeating: " ", count: width - table.count + 2) + String(repeating: " ", count: max(0, 11 - count.count)) + count)
        }
        lines.append("")
        if let dates = statistics.serviceDates { lines.append("Service dates    \(dates.lowerBound) to \(dates.upperBound)") }
        if let times = statistics.departureTimes {
            lines.append("Departure times  \(GTFSTime.format(times.lowerBound)) to \(GTFSTime.format(times.upperBound))")
        }
        lines.append("")
        lines.append("Busiest stops on \(date) (departures)")
        if busiest.isEmpty { lines.append("  no service runs on \(date)") }
        for (rank, stop) in busiest.enumerated() {
            let id = showFeed ? stop.feed + ":" + stop.stopID : stop.stopID
            lines.append(String(repeating: " ", count: rank < 9 ? 3 : 2) + "\(rank + 1). " + stop.name + " (" + id + ")  " + formatCount(stop.departures))
        }
        if let hourly, let stop {
            lines.append("")
            lines.append("Departures per hour at \(stop) on \(date)")
            let most = hourly.map(\.departures).max() ?? 0
            if hourly.isEmpty { lines.append("  none") }
            for (hour, departures) in hourly {
                let bar = String(repeating: "█", count: most == 0 ? 0 : max(1, departures * 40 / most))
                lines.append("  " + GTFSTime.twoDigitsPublic(hour) + ":00  " + bar + " " + String(departures))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    var json: String {
        var parts: [String] = []
        parts.append("\"feeds\": [" + feeds.map(JSONText.quote).joined(separator: ", ") + "]")
        parts.append("\"rows\": {" + statistics.rowCounts.map { JSONText.quote($0.table) + ": " + String($0.rows) }.joined(separator: ", ") + "}")
        if let dates = statistics.serviceDates {
            parts.append("\"service_dates\": {\"first\": \"\(dates.lowerBound)\", \"last\": \"\(dates.upperBound)\"}")
        }
        if let times = statistics.departureTimes {
            parts.append("\"departure_times\": {\"earliest\": \"\(GTFSTime.format(times.lowerBound))\", \"latest\": \"\(GTFSTime.format(times.upperBound))\"}")
        }
        parts.append("\"date\": \"\(date)\"")
        parts.append("\"busiest_stops\": [" + busiest.map {
            "{\"feed\": " + JSONText.quote($0.feed) + ", \"stop_id\": " + JSONText.quote($0.stopID) + ", \"name\": " + JSONText.quote($0.name) + ", \"departures\": " + String($0.departures) + "}"
        }.joined(separator: ", ") + "]")
        if let hourly, let stop {
            parts.append("\"stop_id\": " + JSONText.quote(stop))
            parts.append("\"departures_per_hour\": [" + hourly.map { "{\"hour\": \($0.hour), \"departures\": \($0.departures)}" }.joined(separator: ", ") + "]")
        }
        return "{\n  " + parts.joined(separator: ",\n  ") + "\n}\n"
    }

    /// One row per figure: section, name, value.
    var csv: String {
        var rows = ["section,name,value"]
        for feed in feeds { rows.append("feeds,feed," + OutputValue.text(feed).csv) }
        for (table, count) in statistics.rowCounts { rows.append("rows,\(table),\(count)") }
        if let dates = statistics.serviceDates { rows += ["service_dates,first,\(dates.lowerBound)", "service_dates,last,\(dates.upperBound)"] }
        if let times = statistics.departureTimes {
            rows += ["departure_times,earliest,\(GTFSTime.format(times.lowerBound))", "departure_times,latest,\(GTFSTime.format(times.upperBound))"]
        }
        for stop in busiest { rows.append("busiest_stops \(date)," + OutputValue.text(showFeed ? stop.feed + ":" + stop.stopID : stop.stopID).csv + ",\(stop.departures)") }
        for (hour, departures) in hourly ?? [] { rows.append("departures_per_hour \(date),\(hour),\(departures)") }
        return rows.joined(separator: "\r\n") + "\r\n"
    }
}
