import FetchRequest

/// One call of a trip at a stop, as `transit trip` lists it.
public struct TripCall: Sendable, Equatable {
    public let sequence: Int
    public let stopID: String
    public let stopName: String
    public let platformCode: String?
    public let latitude: Double?
    public let longitude: Double?
    /// GTFS times in seconds after the start of the service day (may exceed a day); nil when the
    /// feed gives none and none could be interpolated.
    public let arrival: Int?
    public let departure: Int?
    /// The times were interpolated at import (the feed left them empty).
    public let interpolated: Bool
    public let pickupType: Int?
    public let dropOffType: Int?
    /// The stop's key in the database.
    public let stopKey: Int
}

/// "Where does this bus go": a trip with its route, service and stop calls in `stop_sequence`
/// order, read from its feed's tables by key ranges and the trip's own stop-times range.
public struct TripDetails: Sendable {
    public let feed: Feed
    public let key: Int
    public let tripID: String
    public let routeID: String
    /// `route_short_name`, `route_long_name` (either may be empty).
    public let routeShortName: String
    public let routeLongName: String
    public let headsign: String?
    public let directionID: Int?
    /// The direction's name from `directions.txt` ("Northbound"), when the feed has one.
    public let directionName: String?
    public let agencyName: String?
    public let serviceKey: Int
    public let serviceID: String
    public let shapeID: String?
    public let calls: [TripCall]

    /// Where the trip is going, as a rider reads it: `trip_headsign`, else its last stop's name
    /// (the rule of departures' `headsign`, before a stop's own `stop_headsign`).
    public var destination: String? { headsign ?? calls.last?.stopName }

    /// "to Bullfrog", from a destination of "Bullfrog" or of "to Bullfrog" (as some feeds write their
    /// headsigns).
    public var towards: String? {
        destination.map { $0.lowercased().hasPrefix("to ") ? $0 : "to " + $0 }
    }

    /// Reads the trip `argument` names (`FEED:ID`, or a bare trip_id one selected feed has).
    public init(named argument: String, in transit: TransitDatabase) throws {
        let (feed, key) = try transit.trip(named: argument)
        self.feed = feed
        self.key = key
        var trip = TransitModel.fetch("trips", feedKey: feed.key, inNaturalOrder: true)
        trip.filter(trip.key == key)
        let service = trip.keyColumnPath(of: "service")
        var found: (String, String, String, String, String?, Int?, String?, Int, String, String?, String?)?
        try transit.database.forEachRow(SQLGenerator.prepare(try trip.query(
            selecting: ["trip_id", "route_id", "route.route_short_name", "route.route_long_name", "trip_headsign", "direction_id",
                        "route.agency.agency_name", "service_id", "shape_id", "direction"], columns: [service]).query)) { row in
            found = (row.string("trip_id"), row.string("route_id"), row.optionalString("route.route_short_name") ?? "",
                     row.optionalString("route.route_long_name") ?? "", row.optionalString("trip_headsign"), row.optionalInt("direction_id"),
                     row.optionalString("route.agency.agency_name"), row.int(service), row.string("service_id"),
                     row.optionalString("shape_id"), row.optionalString("direction"))
        }
        guard let found else { throw TransitError.unknownTrip(id: argument) }
        (tripID, routeID, routeShortName, routeLongName, headsign, directionID, agencyName, serviceKey, serviceID, shapeID, directionName) = found
        var calls = TransitModel.fetch("stop_times", feedKey: feed.key, inNaturalOrder: true)
        calls.filter(calls.key(of: "trip") == key)
        let stop = calls.keyColumnPath(of: "stop")
        var list: [TripCall] = []
        try transit.database.forEachRow(SQLGenerator.prepare(try calls.query(
            selecting: ["stop_sequence", "stop_id", "stop.stop_name", "stop.platform_code", "stop.stop_lat", "stop.stop_lon",
                        "arrival_time", "departure_time", "interpolated", "pickup_type", "drop_off_type"], columns: [stop]).query)) { row in
            list.append(TripCall(sequence: row.int("stop_sequence"), stopID: row.string("stop_id"), stopName: row.optionalString("stop.stop_name") ?? "",
                                 platformCode: row.optionalString("stop.platform_code"), latitude: row.optionalDouble("stop.stop_lat"),
                                 longitude: row.optionalDouble("stop.stop_lon"), arrival: row.optionalInt("arrival_time"),
                                 departure: row.optionalInt("departure_time"), interpolated: row.int("interpolated") != 0,
                                 pickupType: row.optionalInt("pickup_type"), dropOffType: row.optionalInt("drop_off_type"), stopKey: row.int(stop)))
        }
        self.calls = list
    }

    /// The stored realtime changes of this trip's run on `date`, by `stop_sequence`: the delay
    /// (nil: the timetable's time) and whether the stop is skipped (every stop of a cancelled run).
    /// Empty when realtime data says nothing of the run (and for a trip run by `frequencies.txt`,
    /// whose runs this listing does not tell apart).
    public func realtimeChanges(on date: ServiceDate, in transit: TransitDatabase) throws -> [Int: (delay: Int?, skipped: Bool)] {
        // Keyed by stop and scheduled moment: one range per stop of the trip, over the run's span.
        let base = feed.timeZone.noonMinusTwelveHours(date)
        let times = calls.compactMap { $0.departure ?? $0.arrival }
        guard let first = times.min(), let last = times.max() else { return [:] }
        var fetch = TransitModel.fetch("realtime_stop_times", feedKey: feed.key)
        fetch.filter(fetch.key(of: "stop").isIn(Array(Set(calls.map(\.stopKey))).sorted()))
        fetch.filter(fetch.required("scheduled").between(base + first, and: base + last))
        fetch.filter(fetch.key(of: "trip") == key && fetch.required("service_date") == date.yyyymmdd && fetch.required("run_start").isNull)
        var changes: [Int: (delay: Int?, skipped: Bool)] = [:]
        do {
            let query = try fetch.query(selecting: ["stop_sequence", "delay", "skipped"]).query
            try transit.database.forEachRow(SQLGenerator.prepare(query)) {
                changes[$0.int("stop_sequence")] = ($0.optionalInt("delay"), $0.int("skipped") == 1)
            }
        } catch let error as DatabaseError where error.isMissingTable {
            // No realtime data was ever read into this database.
        }
        return changes
    }

    /// True when the trip's service runs on `date`.
    public func runs(on date: ServiceDate, in transit: TransitDatabase) throws -> Bool {
        var days = TransitModel.fetch("service_days", feedKey: feed.key)
        days.filter(days.required("date") == date.yyyymmdd && days.key(of: "service") == serviceKey)
        return try transit.database.count(days.requiredQuery()) > 0
    }

    /// The service's days in words: the weekdays and dates of `calendar.txt`, and how many dates
    /// `calendar_dates.txt` adds and removes ("Mon–Fri, 2026-01-01 to 2026-12-31; 1 date added").
    public func serviceDescription(in transit: TransitDatabase) throws -> String {
        try TripDetails.describeService(key: serviceKey, id: serviceID, in: transit)
    }

    /// The days of service `key` (`serviceID`) in words, as `serviceDescription` gives them.
    public static func describeService(key serviceKey: Int, id serviceID: String, in transit: TransitDatabase) throws -> String {
        var parts: [String] = []
        let feedKey = FeedKeys.feed(of: serviceKey)
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        var calendar = TransitModel.fetch("calendar", feedKey: feedKey)
        calendar.filter(calendar.key(of: "service") == serviceKey)
        try transit.database.forEachRow(SQLGenerator.prepare(try calendar.query(selecting: names + ["start_date", "end_date"]).query)) { row in
            let short = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
            let days = names.indices.filter { row.int(names[$0]) == 1 }
            var text: String
            if days.isEmpty {
                text = "no weekday"
            } else if days == Array(days.first!...days.last!), days.count > 2 {
                text = short[days.first!] + "–" + short[days.last!]
            } else {
                text = days.map { short[$0] }.joined(separator: " ")
            }
            if let from = ServiceDate(yyyymmdd: row.int("start_date")), let to = ServiceDate(yyyymmdd: row.int("end_date")) { text += ", \(from) to \(to)" }
            parts.append(text)
        }
        for (type, word) in [(1, "added"), (2, "removed")] {
            var dates = TransitModel.fetch("calendar_dates", feedKey: feedKey)
            dates.filter(dates.key(of: "service") == serviceKey && dates.required("exception_type") == type)
            let count = try transit.database.count(dates.requiredQuery())
            if count > 0 { parts.append("\(count) date\(count == 1 ? "" : "s") \(word)") }
        }
        return "service \(serviceID): " + (parts.isEmpty ? "no days" : parts.joined(separator: "; "))
    }

    /// The trip's path: its shape's points in `shape_pt_sequence` order, else its stops' positions
    /// in call order. `fromShape` says which.
    public func path(in transit: TransitDatabase) throws -> (points: [(latitude: Double, longitude: Double)], fromShape: Bool) {
        if let shapeID, let shape = try Shape.fetch(shapeID, of: feed, in: transit.database), shape.points.count >= 2 {
            return (shape.points.map { ($0.latitude, $0.longitude) }, true)
        }
        return (calls.compactMap { call in call.latitude.flatMap { lat in call.longitude.map { (lat, $0) } } }, false)
    }
}
