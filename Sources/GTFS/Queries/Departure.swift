import FetchRequest

/// One departure: a trip leaving a stop at an instant.
public struct Departure: Sendable, Equatable {
    /// The name of the feed it belongs to.
    public let feed: String
    public let stopID: String
    public let stopName: String
    public let platformCode: String?
    /// The stop's position, when the feed gives one.
    public let latitude: Double?
    public let longitude: Double?
    public let tripID: String
    public let routeID: String
    /// `route_short_name`, else `route_long_name`.
    public let route: String
    /// `stop_headsign`, else `trip_headsign`, else the name of the trip's last stop.
    public internal(set) var headsign: String
    /// The service date whose timetable this departure belongs to.
    public let serviceDate: ServiceDate
    /// The feed's time on that service date, in seconds (can exceed 24 h); nil for a NEW trip,
    /// which the timetable does not have.
    public let gtfsTime: Int?
    /// The moment it leaves, in seconds since 1970 UTC: the predicted one when realtime data
    /// changed it.
    public let instant: Int
    /// The realtime delay in seconds (nil: the timetable's time, or a NEW trip's given time).
    public var delay: Int? = nil
    /// True when the time comes from realtime data (a delay, a NEW trip, or a cancellation).
    public var isRealtime = false
    /// True when realtime data cancelled it (its trip CANCELED or DELETED, or its stop SKIPPED):
    /// listed only when `DeparturesQuery.includesCancelled` asks, at the timetable's moment.
    public var isCancelled = false

    /// The timetable's moment (nil for a NEW trip).
    public var scheduledInstant: Int? { isCancelled ? instant : isRealtime ? delay.map { instant - $0 } : instant }
}

extension Departure {
    /// A departure from a row of the departures requests (`DepartureColumns.shown`: every one
    /// selects the columns a departure shows in the same places).
    init(feed: String, row: Row, serviceDate: ServiceDate, gtfsTime: Int?, instant: Int, delay: Int? = nil, isRealtime: Bool = false,
         isCancelled: Bool = false) {
        let c = DepartureColumns.shown
        self.init(feed: feed, stopID: row.string(c.stopID), stopName: row.string(c.stopName), platformCode: row.optionalString(c.platformCode),
                  latitude: row.optionalDouble(c.latitude), longitude: row.optionalDouble(c.longitude), tripID: row.string(c.tripID),
                  routeID: row.string(c.routeID), route: row.string(c.route), headsign: row.string(c.headsign), serviceDate: serviceDate,
                  gtfsTime: gtfsTime, instant: instant, delay: delay, isRealtime: isRealtime, isCancelled: isCancelled)
    }
}
