/// What one read of GTFS-Realtime sources holds, as plain values (the protobuf decoding lives in
/// the GTFSRealtime module, linked only into `transit-realtime`). Enumerations keep the numbers
/// of the specification.
public struct RealtimeDataset: Sendable {
    /// One source (a file or URL) and its message's header.
    public struct Source: Sendable {
        public var name: String
        /// The header timestamp, POSIX seconds (nil when the message has none).
        public var timestamp: Int?
        public var tripUpdates = 0
        public var vehicles = 0
        public var alerts = 0
        public init(name: String, timestamp: Int?) {
            self.name = name
            self.timestamp = timestamp
        }
    }

    /// A TripDescriptor.
    public struct TripDescriptor: Sendable {
        public var tripID: String?
        public var routeID: String?
        public var directionID: Int?
        /// `start_time` in seconds (may exceed 24 h).
        public var startTime: Int?
        public var startDate: ServiceDate?
        /// `schedule_relationship`: 0 SCHEDULED, 1 ADDED, 2 UNSCHEDULED, 3 CANCELED, 5 REPLACEMENT,
        /// 6 DUPLICATED, 7 DELETED, 8 NEW.
        public var relationship: Int
        public init(tripID: String? = nil, routeID: String? = nil, directionID: Int? = nil, startTime: Int? = nil,
                    startDate: ServiceDate? = nil, relationship: Int = 0) {
            self.tripID = tripID
            self.routeID = routeID
            self.directionID = directionID
            self.startTime = startTime
            self.startDate = startDate
            self.relationship = relationship
        }

        /// A trip the static feed does not have: NEW, or the older ADDED.
        public var isAdded: Bool { relationship == 1 || relationship == 8 }
    }

    /// An arrival or departure prediction.
    public struct Event: Sendable {
        public var time: Int?
        public var delay: Int?
        public init(time: Int?, delay: Int?) {
            self.time = time
            self.delay = delay
        }
    }

    /// A StopTimeUpdate. `relationship`: 0 SCHEDULED, 1 SKIPPED, 2 NO_DATA, 3 UNSCHEDULED.
    public struct StopTimeUpdate: Sendable {
        public var stopSequence: Int?
        public var stopID: String?
        public var arrival: Event?
        public var departure: Event?
        public var relationship: Int
        public init(stopSequence: Int? = nil, stopID: String? = nil, arrival: Event? = nil, departure: Event? = nil, relationship: Int = 0) {
            self.stopSequence = stopSequence
            self.stopID = stopID
            self.arrival = arrival
            self.departure = departure
            self.relationship = relationship
        }
    }

    public struct TripUpdate: Sendable {
        public var entityID: String
        public var trip: TripDescriptor
        public var vehicleID: String?
        public var vehicleLabel: String?
        public var stopTimeUpdates: [StopTimeUpdate]
        public var timestamp: Int?
        public var delay: Int?
        public init(entityID: String, trip: TripDescriptor, vehicleID: String? = nil, vehicleLabel: String? = nil,
                    stopTimeUpdates: [StopTimeUpdate] = [], timestamp: Int? = nil, delay: Int? = nil) {
            self.entityID = entityID
            self.trip = trip
            self.vehicleID = vehicleID
            self.vehicleLabel = vehicleLabel
            self.stopTimeUpdates = stopTimeUpdates
            self.timestamp = timestamp
            self.delay = delay
        }
    }

    /// A VehiclePosition. `status`: 0 INCOMING_AT, 1 STOPPED_AT, 2 IN_TRANSIT_TO.
    public struct Vehicle: Sendable {
        public var entityID: String
        public var vehicleID: String?
        public var label: String?
        public var trip: TripDescriptor?
        public var latitude: Double?
        public var longitude: Double?
        public var bearing: Double?
        public var speed: Double?
        public var stopID: String?
        public var stopSequence: Int?
        public var status: Int?
        public var timestamp: Int?
        public init(entityID: String) { self.entityID = entityID }
    }

    /// An Alert: texts per field (`header`, `description`, `url`) and language, active periods
    /// (nil ends: open), informed entities.
    public struct Alert: Sendable {
        public struct Text: Sendable {
            public var field: String
            public var language: String?
            public var text: String
            public init(field: String, language: String?, text: String) {
                self.field = field
                self.language = language
                self.text = text
            }
        }
        public struct Entity: Sendable {
            public var agencyID: String?
            public var routeID: String?
            public var routeType: Int?
            public var tripID: String?
            public var stopID: String?
            public var directionID: Int?
            public init() {}
        }
        public var entityID: String
        public var cause: Int?
        public var effect: Int?
        public var texts: [Text] = []
        public var periods: [(start: Int?, end: Int?)] = []
        public var entities: [Entity] = []
        public init(entityID: String) { self.entityID = entityID }
    }

    public var sources: [Source] = []
    public var tripUpdates: [TripUpdate] = []
    public var vehicles: [Vehicle] = []
    public var alerts: [Alert] = []

    public init() {}
}
