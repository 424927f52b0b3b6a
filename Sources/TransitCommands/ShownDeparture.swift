import GTFS

/// A departure as `departures` prints it.
struct ShownDeparture: OutputRecord {
    let departure: Departure
    let minutes: Int
    let local: LocalTime
    /// The timetable's moment in the feed's zone (nil for a NEW trip).
    let scheduled: LocalTime?
    /// The route's colours, read only when a coloured table is drawn.
    var routeColors: RouteColors?
    /// How many identical departures this row stands for in a table (`mergingIdentical`).
    var copies = 1

    var feed: String { departure.feed }

    /// `records` with identical departures as one row each, counted in `copies`: the same stop,
    /// minute, route, headsign and realtime state (a feed that lists one train under several
    /// trip ids, as some do for each of its through-running parts), kept where the first stands.
    static func mergingIdentical(_ records: [ShownDeparture]) -> [ShownDeparture] {
        var merged: [ShownDeparture] = []
        var index: [String: Int] = [:]
        for record in records {
            let d = record.departure
            let key = [d.feed, d.stopID, record.local.iso8601, d.routeID, d.headsign, record.delayText].joined(separator: "\u{1F}")
            if let at = index[key] {
                merged[at].copies += 1
            } else {
                index[key] = merged.count
                merged.append(record)
            }
        }
        return merged
    }

    init(departure: Departure, from start: Int, zone: AgencyTimeZone) {
        self.departure = departure
        // Whole minutes from --at, rounded down.
        let seconds = departure.instant - start
        minutes = seconds >= 0 ? seconds / 60 : -((-seconds + 59) / 60)
        local = zone.localTime(of: departure.instant)
        scheduled = departure.scheduledInstant.map { zone.localTime(of: $0) }
    }

    static let fieldNames = ["stop_id", "stop_name", "trip_id", "route_id", "route", "headsign", "service_date",
                             "gtfs_time", "scheduled", "departure", "minutes", "delay_s", "realtime", "cancelled"]
    var fieldValues: [OutputValue] {
        [.text(departure.stopID), .text(departure.stopName), .text(departure.tripID), .text(departure.routeID),
         .text(departure.route), .text(departure.headsign), .text(departure.serviceDate.description),
         departure.gtfsTime.map { .text(GTFSTime.format($0)) } ?? .null, scheduled.map { .text($0.iso8601) } ?? .null,
         .text(local.iso8601), .integer(minutes), departure.delay.map { .integer($0) } ?? .null, .boolean(departure.isRealtime),
         .boolean(departure.isCancelled)]
    }

    /// The delay as the table shows it: "+4 min", "on time", "−1 min", "new" for a NEW trip,
    /// "cancelled", nothing for the timetable's time.
    var delayText: String {
        guard departure.isRealtime else { return "" }
        if departure.isCancelled { return "cancelled" }
        guard let delay = departure.delay else { return "new" }
        let minutes = Int((Double(delay) / 60).rounded())
        if minutes == 0 { return "on time" }
        return minutes > 0 ? "+\(minutes) min" : "\u{2212}\(-minutes) min"
    }
    var coordinate: (latitude: Double, longitude: Double)? {
        guard let latitude = departure.latitude, let longitude = departure.longitude else { return nil }
        return (latitude, longitude)
    }
    static let tableHeaders = ["Time", "In", "Realtime", "Route", "Headsign", "Stop", "Platform"]
    static let rightAligned: Set<Int> = [1]
    static let omittedWhenEmpty: Set<Int> = [2]
    static let truncatable: Set<Int> = [4, 5]
    var tableCells: [String] {
        [local.hourMinute, "\(minutes) min", delayText, departure.route, departure.headsign + (copies > 1 ? " (×\(copies))" : ""),
         departure.stopName, departure.platformCode ?? ""]
    }
    /// The route as a badge in its colours, the realtime delay coloured (a cancellation as late).
    var tableStyles: [CellStyle] {
        let realtime = departure.isCancelled ? CellStyle.late : departure.isRealtime ? CellStyle.delay(departure.delay) : .none
        return [realtime, .none, realtime,
         routeColors.map { .badge($0) } ?? .none, .none, .none, .none]
    }
}
