import FetchRequest

/// A row of a feed's `stop_times_<feed>`: a trip at one of its stops. Its table is the feed's own,
/// so requests for stop times are made in a feed's model (`FetchRequest(where:in:)`,
/// `FetchRequest(format:…, in:)`), which names it.
public struct StopTime: ModelRecord, Sendable, Equatable {
    public static let tableName = "stop_times"
    public static let entityName = "stop_times"
    public static let columnNames = ["trip", "stop_sequence", "stop", "arrival", "departure", "interpolated", "stop_headsign",
                                     "pickup_type", "drop_off_type", "timepoint", "shape_dist_traveled"]

    public let tripKey: Int
    public let stopSequence: Int
    public let stopKey: Int
    /// Seconds after the start of the service day (past 86,400 after midnight), when known.
    public let arrival: Int?
    public let departure: Int?
    /// True when transit interpolated the times (the feed left them empty).
    public let interpolated: Bool
    public let stopHeadsign: String?
    public let pickupType: Int?
    public let dropOffType: Int?
    public let timepoint: Int?
    public let shapeDistanceTraveled: Double?

    private static let columns = (trip: RecordColumn<StopTime>("trip"), sequence: RecordColumn<StopTime>("stop_sequence"),
                                  stop: RecordColumn<StopTime>("stop"), arrival: RecordColumn<StopTime>("arrival"),
                                  departure: RecordColumn<StopTime>("departure"), interpolated: RecordColumn<StopTime>("interpolated"),
                                  headsign: RecordColumn<StopTime>("stop_headsign"), pickup: RecordColumn<StopTime>("pickup_type"),
                                  dropOff: RecordColumn<StopTime>("drop_off_type"), timepoint: RecordColumn<StopTime>("timepoint"),
                                  distance: RecordColumn<StopTime>("shape_dist_traveled"))

    public init(row: Row) throws {
        let c = StopTime.columns
        tripKey = row.int(c.trip)
        stopSequence = row.int(c.sequence)
        stopKey = row.int(c.stop)
        arrival = row.optionalInt(c.arrival)
        departure = row.optionalInt(c.departure)
        interpolated = row.int(c.interpolated) != 0
        stopHeadsign = row.optionalString(c.headsign)
        pickupType = row.optionalInt(c.pickup)
        dropOffType = row.optionalInt(c.dropOff)
        timepoint = row.optionalInt(c.timepoint)
        shapeDistanceTraveled = row.optionalDouble(c.distance)
    }

    /// The keys of `stop_times` for typed predicates (times and dates compare as stored: seconds).
    public struct Keys: Sendable {
        public let stopSequence = ModelKey<StopTime, Int>("stop_sequence")
        public let departureTime = ModelKey<StopTime, Int?>("departure_time")
        public let arrivalTime = ModelKey<StopTime, Int?>("arrival_time")
        public let pickupType = ModelKey<StopTime, Int?>("pickup_type")
        public let interpolated = ModelKey<StopTime, Bool>("interpolated")
        public let trip = ModelKey<StopTime, Trip>("trip")
        public let stop = ModelKey<StopTime, Stop>("stop")
    }

    public static let keys = Keys()
}
