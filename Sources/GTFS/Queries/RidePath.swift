import FetchRequest

/// The line a ride draws on a map: the piece of its trip's shape between the call it boards at
/// and the call it alights at, else its calls' stops in order.
///
/// The piece is cut by `shape_dist_traveled` when both the shape's points and the two calls give
/// it; otherwise each of the trip's calls is placed on the shape in order (`ShapeLine.project`)
/// and the piece runs between the two calls' places. Either way it starts and ends on the shape,
/// at the cut points, not at the stops' own positions. A trip without a shape (or with fewer than
/// two points), or a cut that puts a call of the ride more than `maximumStopOffset` from its stop,
/// gives the stops instead.
///
/// It reads the trip's `shape_id`, its stop times with their stops' positions (one key range) and, when
/// the trip has one, its shape (`Shape.fetch`).
public struct RidePath: Sendable {
    /// Where the points came from.
    public enum Source: String, Sendable {
        /// The shape, cut at the calls' `shape_dist_traveled`.
        case shapeDistances
        /// The shape, cut where the calls' stops project onto it.
        case shapeProjection
        /// The calls' stops in order (no usable shape).
        case stops
    }

    /// The line's points in order.
    public let points: [(latitude: Double, longitude: Double)]
    /// Where they came from.
    public let source: Source

    /// How far (metres) a call's stop may be from its cut point before the cut is not trusted.
    public static let maximumStopOffset = 1_000.0

    /// One call of the trip: its stop, `shape_dist_traveled` and the stop's position.
    private struct Call {
        let stop: Int
        let distance: Double?
        let position: (latitude: Double, longitude: Double)?
    }

    /// The path of a ride on trip `trip` (a key) through `calls`: the stop keys of its calls from
    /// boarding to alighting (`JourneyLeg.path`). The ride is found in the trip as that run of
    /// calls; failing that, as the first call at the first stop and the first call after it at
    /// the last.
    public init(trip: Int, calls: [Int], in transit: TransitDatabase) throws {
        let tripCalls = try RidePath.calls(ofTrip: trip, in: transit)
        guard let ride = RidePath.locate(calls, in: tripCalls.map(\.stop)) else {
            var positions: [Int: (latitude: Double, longitude: Double)] = [:]
            for call in tripCalls { positions[call.stop] = call.position }
            self.init(points: calls.compactMap { positions[$0] }, source: .stops)
            return
        }
        let stops = tripCalls[ride].compactMap(\.position)
        guard let shapeID = try RidePath.shapeID(ofTrip: trip, in: transit), let feed = transit.feed(ofKey: trip),
              let shape = try Shape.fetch(shapeID, of: feed, in: transit.database), let line = ShapeLine(shape.points) else {
            self.init(points: stops, source: .stops)
            return
        }
        if let points = RidePath.cutByDistance(line, tripCalls, ride) {
            self.init(points: points, source: .shapeDistances)
        } else if let points = RidePath.cutByProjection(line, tripCalls, ride) {
            self.init(points: points, source: .shapeProjection)
        } else {
            self.init(points: stops, source: .stops)
        }
    }

    private init(points: [(latitude: Double, longitude: Double)], source: Source) {
        self.points = points
        self.source = source
    }

    /// The trip's `shape_id`, if it has one.
    private static func shapeID(ofTrip trip: Int, in transit: TransitDatabase) throws -> String? {
        var fetch = TransitModel.fetch("trips", feedKey: FeedKeys.feed(of: trip))
        fetch.filter(fetch.key == trip)
        var shapeID: String?
        try transit.database.forEachRow(SQLGenerator.prepare(try fetch.query(selecting: ["shape_id"]).query)) { shapeID = $0.optionalString("shape_id") }
        return shapeID
    }

    /// The trip's calls in `stop_sequence` order, with their stops' positions.
    private static func calls(ofTrip trip: Int, in transit: TransitDatabase) throws -> [Call] {
        var fetch = TransitModel.fetch("stop_times", feedKey: FeedKeys.feed(of: trip), inNaturalOrder: true)
        fetch.filter(fetch.key(of: "trip") == trip)
        let stop = fetch.keyColumnPath(of: "stop")
        let query = try fetch.query(selecting: ["shape_dist_traveled", "stop.stop_lat", "stop.stop_lon"], columns: [stop]).query
        var calls: [Call] = []
        try transit.database.forEachRow(SQLGenerator.prepare(query)) { row in
            let latitude = row.optionalDouble("stop.stop_lat"), longitude = row.optionalDouble("stop.stop_lon")
            calls.append(Call(stop: row.int(stop), distance: row.optionalDouble("shape_dist_traveled"),
                              position: latitude.flatMap { lat in longitude.map { (lat, $0) } }))
        }
        return calls
    }

    /// The indices of `ride` (stop keys) in `trip` (the trip's stop keys in order): the first run
    /// equal to it, else the first call at its first stop and the first call after that at its last.
    static func locate(_ ride: [Int], in trip: [Int]) -> ClosedRange<Int>? {
        guard let first = ride.first, let last = ride.last else { return nil }
        if ride.count >= 2, trip.count >= ride.count {
            for start in 0...(trip.count - ride.count) where trip[start..<(start + ride.count)].elementsEqual(ride) {
                return start...(start + ride.count - 1)
            }
        }
        guard let board = trip.firstIndex(of: first), board + 1 < trip.count,
              let alight = trip[(board + 1)...].firstIndex(of: last) else { return nil }
        return board...alight
    }

    /// The piece between the ride's first and last calls' `shape_dist_traveled`, when the shape's
    /// points and those calls have it, the first comes before the last, and each call of the ride
    /// that has it lands within `maximumStopOffset` of its stop.
    private static func cutByDistance(_ line: ShapeLine, _ calls: [Call], _ ride: ClosedRange<Int>) -> [(latitude: Double, longitude: Double)]? {
        guard let board = calls[ride.lowerBound].distance.flatMap(line.place(atDistance:)),
              let alight = calls[ride.upperBound].distance.flatMap(line.place(atDistance:)), board < alight else { return nil }
        for call in calls[ride] {
            guard let stop = call.position, let place = call.distance.flatMap(line.place(atDistance:)) else { continue }
            let cut = line.coordinate(at: place)
            if Geo.distance(stop.latitude, stop.longitude, cut.latitude, cut.longitude) > maximumStopOffset { return nil }
        }
        let piece = line.piece(from: board, to: alight)
        return piece.count >= 2 ? piece : nil
    }

    /// The piece between the places of the ride's first and last calls when every call of the
    /// trip with a position is projected onto the shape in order, when both have a position, each
    /// call of the ride lands within `maximumStopOffset` of its stop, and the first lies before the last.
    private static func cutByProjection(_ line: ShapeLine, _ calls: [Call], _ ride: ClosedRange<Int>) -> [(latitude: Double, longitude: Double)]? {
        guard calls[ride.lowerBound].position != nil, calls[ride.upperBound].position != nil else { return nil }
        let placed = calls.indices.filter { calls[$0].position != nil }
        let projections = line.project(placed.compactMap { calls[$0].position })
        var board: ShapeLine.Place?, alight: ShapeLine.Place?
        for (index, projection) in zip(placed, projections) where ride.contains(index) {
            if projection.metres > maximumStopOffset { return nil }
            if index == ride.lowerBound { board = projection.place }
            if index == ride.upperBound { alight = projection.place }
        }
        guard let board, let alight, board < alight else { return nil }
        let piece = line.piece(from: board, to: alight)
        return piece.count >= 2 ? piece : nil
    }
}
