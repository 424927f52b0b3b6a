#if canImport(Glibc)
import Glibc
#endif

/// A shape's polyline, for cutting out the piece a ride takes: places on it found by
/// `shape_dist_traveled` or by projecting stops onto it, and the points between two places.
///
/// Distances are measured on a flat (equirectangular) projection around the shape's first point,
/// in metres: over the few kilometres of a ride its error is far below a stop's offset from the
/// road, and a straight segment stays straight, so a place's fraction of a segment is the same in
/// degrees and in metres.
struct ShapeLine {
    /// A place on the line: `fraction` (0...1) of the way along segment `segment` (from point
    /// `segment` to point `segment + 1`). Places compare in the order a vehicle passes them.
    struct Place: Comparable {
        /// The segment's first point's index.
        var segment: Int
        /// How far along the segment, from 0 (its first point) to 1 (its last).
        var fraction: Double

        static func < (left: Place, right: Place) -> Bool {
            (left.segment, left.fraction) < (right.segment, right.fraction)
        }
    }

    /// A stop's place on the line and its distance from it in metres.
    struct Projection {
        /// Where the stop is placed.
        var place: Place
        /// How far the stop is from that place.
        var metres: Double
    }

    /// The shape's points in `shape_pt_sequence` order.
    let points: [Shape.Point]
    /// The points on the flat projection, in metres east and north of the first.
    private let flat: [(x: Double, y: Double)]
    private let latitude0: Double, longitude0: Double, eastScale: Double
    /// The points' `shape_dist_traveled`; nil unless every point has one and they never decrease.
    private let distances: [Double]?

    /// Metres per degree of latitude on the sphere `Geo` uses.
    private static let metresPerDegree = Geo.earthRadius * .pi / 180

    /// The line through `points` (in `shape_pt_sequence` order); nil for fewer than two points.
    init?(_ points: [Shape.Point]) {
        guard points.count >= 2 else { return nil }
        self.points = points
        latitude0 = points[0].latitude
        longitude0 = points[0].longitude
        eastScale = cos(latitude0 * .pi / 180) * ShapeLine.metresPerDegree
        let (lat0, lon0, scale) = (latitude0, longitude0, eastScale)
        flat = points.map { ShapeLine.flatten($0.latitude, $0.longitude, lat0, lon0, scale) }
        let distances = points.compactMap(\.distanceTraveled)
        self.distances = distances.count == points.count && zip(distances, distances.dropFirst()).allSatisfy { $0 <= $1 } ? distances : nil
    }

    private static func flatten(_ latitude: Double, _ longitude: Double, _ lat0: Double, _ lon0: Double, _ scale: Double) -> (x: Double, y: Double) {
        var east = longitude - lon0
        // The short way round across the 180° meridian.
        if east > 180 { east -= 360 } else if east < -180 { east += 360 }
        return (east * scale, (latitude - lat0) * metresPerDegree)
    }

    private func flatten(_ latitude: Double, _ longitude: Double) -> (x: Double, y: Double) {
        ShapeLine.flatten(latitude, longitude, latitude0, longitude0, eastScale)
    }

    // MARK: Places by shape_dist_traveled

    /// The place at `shape_dist_traveled` `distance`, interpolated linearly on the segment it
    /// falls on; a distance before the first point or past the last is taken as that end (feeds
    /// round them). Nil unless every point has a `shape_dist_traveled` and they never decrease.
    func place(atDistance distance: Double) -> Place? {
        guard let distances else { return nil }
        guard distance > distances[0] else { return Place(segment: 0, fraction: 0) }
        for segment in 0..<(points.count - 1) where distance <= distances[segment + 1] {
            let length = distances[segment + 1] - distances[segment]
            return Place(segment: segment, fraction: length > 0 ? (distance - distances[segment]) / length : 1)
        }
        return Place(segment: points.count - 2, fraction: 1)
    }

    // MARK: Places by projection

    /// The nearest place to `stop` (on the flat projection) on segment `segment`, not before
    /// `fraction` of it, and its distance in metres.
    private func nearest(_ stop: (x: Double, y: Double), onSegment segment: Int, from fraction: Double = 0) -> (fraction: Double, metres: Double) {
        let (a, b) = (flat[segment], flat[segment + 1])
        let (dx, dy) = (b.x - a.x, b.y - a.y)
        let squared = dx * dx + dy * dy
        var t = squared > 0 ? ((stop.x - a.x) * dx + (stop.y - a.y) * dy) / squared : 0
        t = min(1, max(fraction, t))
        let (x, y) = (a.x + t * dx, a.y + t * dy)
        return (t, ((stop.x - x) * (stop.x - x) + (stop.y - y) * (stop.y - y)).squareRoot())
    }

    /// The places of `stops` (a trip's calls in order) on the line, each at or after the one
    /// before: of all such placements, the one with the least total distance between the stops
    /// and their places (dynamic programming over calls and segments). So a loop or an
    /// out-and-back shape, which passes a stop twice, puts each call on the pass the trip makes
    /// then, and one stop nearer a later pass does not drag the calls after it down the line.
    func project(_ stops: [(latitude: Double, longitude: Double)]) -> [Projection] {
        guard !stops.isEmpty else { return [] }
        let segments = points.count - 1
        let flatStops = stops.map { flatten($0.latitude, $0.longitude) }
        // By call, then segment: the call's fraction of the segment when it is placed there, and
        // the previous call's segment then; `cost` is the least total distance of the calls so
        // far with the call in hand on each segment.
        var fractions: [[Double]] = []
        var parents: [[Int32]] = []
        var cost = [Double](repeating: 0, count: segments)
        for (index, stop) in flatStops.enumerated() {
            var newCost = cost
            var fraction = [Double](repeating: 0, count: segments)
            var parent = [Int32](repeating: -1, count: segments)
            var earliest = (cost: Double.infinity, segment: -1)  // the least total over the segments before
            for segment in 0..<segments {
                let free = nearest(stop, onSegment: segment)
                guard index > 0 else {
                    (newCost[segment], fraction[segment]) = (free.metres, free.fraction)
                    continue
                }
                // After the previous call on an earlier segment, or on this one and not before it.
                let same = nearest(stop, onSegment: segment, from: fractions[index - 1][segment])
                let afterEarlier = earliest.cost + free.metres, afterSame = cost[segment] + same.metres
                if afterEarlier < afterSame {
                    (newCost[segment], fraction[segment], parent[segment]) = (afterEarlier, free.fraction, Int32(earliest.segment))
                } else {
                    (newCost[segment], fraction[segment], parent[segment]) = (afterSame, same.fraction, Int32(segment))
                }
                if cost[segment] < earliest.cost { earliest = (cost[segment], segment) }
            }
            fractions.append(fraction)
            parents.append(parent)
            cost = newCost
        }
        // The last call's best segment, then back through the parents.
        var segment = cost.indices.min { cost[$0] < cost[$1] } ?? 0
        var places = [Place](repeating: Place(segment: 0, fraction: 0), count: stops.count)
        for index in stride(from: stops.count - 1, through: 0, by: -1) {
            places[index] = Place(segment: segment, fraction: fractions[index][segment])
            segment = Int(parents[index][segment])
        }
        return zip(places, flatStops).map { place, stop in
            let position = coordinate(at: place)
            let point = flatten(position.latitude, position.longitude)
            let (dx, dy) = (stop.x - point.x, stop.y - point.y)
            return Projection(place: place, metres: (dx * dx + dy * dy).squareRoot())
        }
    }

    // MARK: Pieces

    /// The position of `place`, interpolated linearly between its segment's ends.
    func coordinate(at place: Place) -> (latitude: Double, longitude: Double) {
        let (a, b) = (points[place.segment], points[place.segment + 1])
        if place.fraction <= 0 { return (a.latitude, a.longitude) }
        if place.fraction >= 1 { return (b.latitude, b.longitude) }
        return (a.latitude + place.fraction * (b.latitude - a.latitude), a.longitude + place.fraction * (b.longitude - a.longitude))
    }

    /// The line from `start` to `end` (not before it): the two places and the points between
    /// them, a point given twice in a row kept once.
    func piece(from start: Place, to end: Place) -> [(latitude: Double, longitude: Double)] {
        var piece = [coordinate(at: start)]
        func add(_ point: (latitude: Double, longitude: Double)) {
            guard let last = piece.last, abs(last.latitude - point.latitude) > 1e-9 || abs(last.longitude - point.longitude) > 1e-9 else { return }
            piece.append(point)
        }
        if start.segment < end.segment {
            for index in (start.segment + 1)...end.segment { add((points[index].latitude, points[index].longitude)) }
        }
        add(coordinate(at: end))
        return piece
    }
}
