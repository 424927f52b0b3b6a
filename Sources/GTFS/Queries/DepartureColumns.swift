import FetchRequest

/// What each departures request selects, by name and in order, and where a row holds each value:
/// the requests select exactly these names in this order (`ModelFetch.select(_:from:)`), and rows
/// are read at the places of the names here, found once per process.
enum DepartureColumns {
    /// The columns a departure shows, which every departures request selects first.
    static let shownNames = ["stop_id", "stop_name", "platform_code", "trip_id", "route_id", "route", "headsign", "departure", "stop_lat", "stop_lon"]
    /// A timetable request: the shown columns (`headsign` the trip's, the stop's own read after
    /// for the rows listed), then the stop time's identity.
    static let identityNames = shownNames + ["trip", "stop_sequence"]
    /// A frequency template row: the shown columns, its first stop's departure, the period and headway, its identity.
    static let frequencyNames = shownNames + ["first_departure", "start_time", "end_time", "headway_secs", "trip", "stop_sequence"]
    /// A NEW trip's departure: the shown columns with its `instant` where the others have their GTFS time, and its service date.
    static let addedNames = shownNames.map { $0 == "departure" ? "instant" : $0 } + ["service_date"]
    /// A realtime change of a stop time.
    static let changeNames = ["scheduled", "delay", "skipped", "service_date", "trip", "stop_sequence"]

    static let shown: (stopID: Int, stopName: Int, platformCode: Int, tripID: Int, routeID: Int, route: Int, headsign: Int,
                       departure: Int, latitude: Int, longitude: Int) = {
        let at = { (name: String) in position(of: name, in: shownNames) }
        return (at("stop_id"), at("stop_name"), at("platform_code"), at("trip_id"), at("route_id"), at("route"), at("headsign"),
                at("departure"), at("stop_lat"), at("stop_lon"))
    }()
    static let added: (instant: Int, serviceDate: Int) = {
        let at = { (name: String) in position(of: name, in: addedNames) }
        return (at("instant"), at("service_date"))
    }()
    static let identity: (trip: Int, sequence: Int) = {
        let at = { (name: String) in position(of: name, in: identityNames) }
        return (at("trip"), at("stop_sequence"))
    }()
    static let frequency: (firstDeparture: Int, start: Int, end: Int, headway: Int, trip: Int, sequence: Int) = {
        let at = { (name: String) in position(of: name, in: frequencyNames) }
        return (at("first_departure"), at("start_time"), at("end_time"), at("headway_secs"), at("trip"), at("stop_sequence"))
    }()
    static let change: (scheduled: Int, delay: Int, skipped: Int, serviceDate: Int, trip: Int, sequence: Int) = {
        let at = { (name: String) in position(of: name, in: changeNames) }
        return (at("scheduled"), at("delay"), at("skipped"), at("service_date"), at("trip"), at("stop_sequence"))
    }()

    private static func position(of name: String, in names: [String]) -> Int {
        guard let index = names.firstIndex(of: name) else { preconditionFailure("the departures requests select no \(name)") }
        return index
    }
}
