import FetchRequest

/// "Where does the line run": a route's trips grouped by direction into stop patterns, the pattern
/// most trips follow per direction (ties: the pattern whose first trip, by trip_id, sorts first),
/// and per service (day type) the first and last departure from the trips' first stops.
public struct RoutePatterns: Sendable {
    /// A stop of a pattern.
    public struct PatternStop: Sendable, Equatable {
        public let stopID: String
        public let name: String
        public let latitude: Double?
        public let longitude: Double?
    }

    /// One sequence of stops and the trips that follow it.
    public struct Pattern: Sendable {
        public let stops: [PatternStop]
        public let trips: Int
        /// The trip_id that sorts first among its trips.
        public let firstTripID: String
    }

    /// The trips of one service in one direction.
    public struct DayType: Sendable {
        public let serviceKey: Int
        public let serviceID: String
        public let trips: Int
        /// GTFS times (seconds) of the earliest and latest departure from a trip's first stop.
        public let firstDeparture: Int?
        public let lastDeparture: Int?
    }

    /// One direction of the route (`direction_id`, nil when the feed gives none).
    public struct Direction: Sendable {
        public let directionID: Int?
        /// Its name from `directions.txt` ("Inbound"), when the feed has one.
        public let name: String?
        /// Most used first (then by first trip).
        public let patterns: [Pattern]
        public let dayTypes: [DayType]
        public var trips: Int { patterns.reduce(0) { $0 + $1.trips } }
        /// The pattern most trips follow.
        public var main: Pattern? { patterns.first }
    }

    public let feed: Feed
    public let route: RouteSummary
    public let directions: [Direction]
    /// The distinct shapes of the route's trips, with their points in order.
    public let shapes: [(shapeID: String, points: [(latitude: Double, longitude: Double)])]

    /// Reads the route `argument` names (`FEED:ID`, or a bare route_id one selected feed has).
    public init(named argument: String, in transit: TransitDatabase) throws {
        let (feed, key) = try transit.route(named: argument)
        self.feed = feed
        var listing = RouteListing()
        listing.onlyRoute = key
        guard let route = try listing.run(on: transit, feeds: [feed]).first else { throw TransitError.unknownRoute(id: argument) }
        self.route = route
        let trips = try Self.trips(ofRoute: key, in: feed, on: transit)
        let groups = try TripGroups(trips, in: feed, on: transit)
        let stops = try Self.patternStops(groups.stopKeys, on: transit)
        let names = try Self.directionNames(ofRoute: key, in: feed, on: transit)
        directions = groups.directions(stops: stops, names: names)
        shapes = try Self.shapes(of: trips, in: feed, on: transit)
    }

    /// A trip of the route: its key, trip_id, direction, service (key and id) and shape_id.
    fileprivate typealias TripRow = (key: Int, id: String, direction: Int?, service: Int, serviceID: String, shape: String?)

    /// The route's trips (an index range on trips(route)), then by trip_id.
    private static func trips(ofRoute key: Int, in feed: Feed, on transit: TransitDatabase) throws -> [TripRow] {
        var trips = TransitModel.fetch("trips", feedKey: feed.key, inNaturalOrder: true)
        trips.filter(trips.key(of: "route") == key)
        let (tripKey, service) = (trips.entity.keyColumn, trips.keyColumnPath(of: "service"))
        var tripRows: [TripRow] = []
        try transit.database.forEachRow(SQLGenerator.prepare(try trips.query(selecting: ["trip_id", "direction_id", "service_id", "shape_id"],
                                                                             columns: [tripKey, service]).query)) { row in
            tripRows.append((row.int(tripKey), row.string("trip_id"), row.optionalInt("direction_id"), row.int(service),
                             row.string("service_id"), row.optionalString("shape_id")))
        }
        tripRows.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        return tripRows
    }

    /// The stops whose keys are `keys`, with their ids and names, one request for all of them
    /// (a stop not found stays blank).
    private static func patternStops(_ keys: Set<Int>, on transit: TransitDatabase) throws -> [Int: PatternStop] {
        var stopsByKey: [Int: PatternStop] = [:]
        for stop in keys { stopsByKey[stop] = PatternStop(stopID: "", name: "", latitude: nil, longitude: nil) }
        if !stopsByKey.isEmpty {
            let stops = FetchRequest<Stop>().filter(Stop.column(Stop.columns.key).isIn(Array(stopsByKey.keys).sorted()))
            for stop in try transit.database.fetch(stops) {
                stopsByKey[stop.key] = PatternStop(stopID: stop.stopID, name: stop.name, latitude: stop.latitude, longitude: stop.longitude)
            }
        }
        return stopsByKey
    }

    /// The names of the route's directions (directions.txt) by direction_id, one request.
    private static func directionNames(ofRoute key: Int, in feed: Feed, on transit: TransitDatabase) throws -> [Int: String] {
        var directionNames: [Int: String] = [:]
        var names = TransitModel.fetch("directions", feedKey: feed.key, inNaturalOrder: true)
        names.filter(names.key(of: "route") == key)
        try transit.database.forEachRow(SQLGenerator.prepare(try names.query(selecting: ["direction_id", "direction"]).query)) { row in
            directionNames[row.int("direction_id")] = row.string("direction")
        }
        return directionNames
    }

    /// The distinct shapes of `trips` with at least two points, in the order their first trips sort.
    private static func shapes(of trips: [TripRow], in feed: Feed, on transit: TransitDatabase) throws
        -> [(shapeID: String, points: [(latitude: Double, longitude: Double)])] {
        var shapeIDs: [String] = []
        for trip in trips { if let shape = trip.shape, !shapeIDs.contains(shape) { shapeIDs.append(shape) } }
        var shapes: [(String, [(latitude: Double, longitude: Double)])] = []
        for shapeID in shapeIDs {
            if let shape = try Shape.fetch(shapeID, of: feed, in: transit.database), shape.points.count >= 2 {
                shapes.append((shapeID, shape.points.map { ($0.latitude, $0.longitude) }))
            }
        }
        return shapes
    }
}

/// A route's trips grouped by direction into stop patterns and into day types (direction and
/// service), each group in the order of its first trip.
private struct TripGroups {
    typealias PatternStop = RoutePatterns.PatternStop

    var groups: [String: (direction: Int?, stops: [Int], trips: Int, first: String)] = [:]
    var order: [String] = []
    var days: [String: (direction: Int?, service: Int, serviceID: String, trips: Int, first: Int?, last: Int?)] = [:]
    var dayOrder: [String] = []
    /// The stops of every pattern.
    var stopKeys: Set<Int> = []

    /// Groups `trips` (sorted by trip_id), reading each trip's stops in order: its own range of stop_times_K.
    init(_ trips: [RoutePatterns.TripRow], in feed: Feed, on transit: TransitDatabase) throws {
        var callsOfTrip = TransitModel.fetch("stop_times", feedKey: feed.key)
        callsOfTrip.filter(callsOfTrip.key(of: "trip") == .variable("trip"))
        callsOfTrip.sort(by: [callsOfTrip.required("stop_sequence").ascending])
        let stop = callsOfTrip.keyColumnPath(of: "stop")
        let calls = SQLGenerator.prepare(try callsOfTrip.query(selecting: ["departure_time"], columns: [stop]).query)
        for trip in trips {
            var stops: [Int] = []
            var firstDeparture: Int?
            try transit.database.forEachRow(try calls.substituting(["trip": trip.key])) { row in
                if stops.isEmpty { firstDeparture = row.optionalInt("departure_time") }
                stops.append(row.int(stop))
            }
            add(trip, stops: stops, firstDeparture: firstDeparture)
        }
    }

    /// Counts `trip`, calling at `stops` and leaving the first at `firstDeparture`, in its pattern and its day type.
    private mutating func add(_ trip: RoutePatterns.TripRow, stops: [Int], firstDeparture: Int?) {
        let patternKey = "\(trip.direction.map(String.init) ?? "-")|" + stops.map(String.init).joined(separator: ",")
        if groups[patternKey] == nil {
            groups[patternKey] = (trip.direction, stops, 0, trip.id)
            order.append(patternKey)
        }
        groups[patternKey]!.trips += 1
        let dayKey = "\(trip.direction.map(String.init) ?? "-")|\(trip.service)"
        if days[dayKey] == nil {
            days[dayKey] = (trip.direction, trip.service, trip.serviceID, 0, nil, nil)
            dayOrder.append(dayKey)
        }
        days[dayKey]!.trips += 1
        if let time = firstDeparture {
            days[dayKey]!.first = min(days[dayKey]!.first ?? time, time)
            days[dayKey]!.last = max(days[dayKey]!.last ?? time, time)
        }
        stopKeys.formUnion(stops)
    }

    /// The directions, by direction_id (none first), each with its patterns (most trips first,
    /// then by first trip) and day types (by service_id); `stops` by key, `names` by direction_id.
    func directions(stops stopsByKey: [Int: PatternStop], names directionNames: [Int: String]) -> [RoutePatterns.Direction] {
        var directionIDs: [Int?] = []
        for key in order where !directionIDs.contains(where: { $0 == groups[key]!.direction }) { directionIDs.append(groups[key]!.direction) }
        directionIDs.sort { ($0 ?? -1) < ($1 ?? -1) }
        return directionIDs.map { direction in
            // Order kept from the trips sorted by trip_id, so a stable sort by count breaks ties by first trip.
            let patterns = order.map { groups[$0]! }.filter { $0.direction == direction }
                .map { RoutePatterns.Pattern(stops: $0.stops.map { stopsByKey[$0]! }, trips: $0.trips, firstTripID: $0.first) }
            let sortedPatterns = patterns.enumerated().sorted { a, b in
                a.element.trips != b.element.trips ? a.element.trips > b.element.trips : a.offset < b.offset
            }.map(\.element)
            let dayTypes = dayOrder.map { days[$0]! }.filter { $0.direction == direction }
                .map { RoutePatterns.DayType(serviceKey: $0.service, serviceID: $0.serviceID, trips: $0.trips, firstDeparture: $0.first, lastDeparture: $0.last) }
                .sorted { $0.serviceID.utf8.lexicographicallyPrecedes($1.serviceID.utf8) }
            return RoutePatterns.Direction(directionID: direction, name: direction.flatMap { directionNames[$0] }, patterns: sortedPatterns, dayTypes: dayTypes)
        }
    }
}
