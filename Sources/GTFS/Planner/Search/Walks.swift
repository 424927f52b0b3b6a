#if canImport(Glibc)
import Glibc
#endif

/// The walks and changes of one set of search settings (`--max-walk`, `--walk-speed`) over a
/// loaded timetable, computed for a stop the first time a search needs them.
///
/// The rules (the GTFS reference's transfers.txt, applied through rows that name no route or
/// trip): a row naming a station applies to each of its boarding points, the most specific row
/// wins (stop→stop, then stop→station, then station→stop, then station→station). A walk a → b
/// (a ≠ b) exists when such a row has type 0, 1 or 2 (taking `min_transfer_time` when given, else
/// ⌈distance / speed⌉, even beyond the walk radius), or, with no row, when the great-circle
/// distance is within the radius; a type-3 row forbids it. Staying at a stop to change takes 0 s,
/// unless its row (from = to) says type 2 (`min_transfer_time`, 0 s when empty) or type 3 (no
/// change there).
final class Walks {
    let timetable: PlannerTimetable
    let maximumDistance: Double
    let speed: Double
    /// Per stop number, its walks once worked out (nil: not yet).
    private let outgoing: SparseSlab<[(stop: StopNumber, seconds: Int)]>
    private let incoming: SparseSlab<[(stop: StopNumber, seconds: Int)]>
    /// Per feed part, whether it has no transfers.txt rule the planner applies: its stops' walks
    /// then follow from distances alone, the same both ways.
    private let partHasNoRules: [Bool]
    /// Per stop number, its change time once worked out, in seconds plus two (0: not worked out
    /// yet; 1: no change allowed), so that the slab starts as zero bytes (see `Slab`).
    private let changes: Slab<Int32>

    /// Walks over `timetable`: nothing is read until a search asks for a stop's walks, which are
    /// measured to the boarding points of the stop index's tiles around it.
    init(timetable: PlannerTimetable, maximumDistance: Double, speed: Double) {
        self.timetable = timetable
        self.maximumDistance = maximumDistance
        self.speed = speed
        outgoing = SparseSlab(count: timetable.stopCount)
        incoming = SparseSlab(count: timetable.stopCount)
        partHasNoRules = timetable.parts.map { $0.transfersFrom.isEmpty && $0.transfersTo.isEmpty }
        changes = Slab(count: timetable.stopCount, fill: 0)
    }

    /// The boarding points within `radius` metres of a position (a journey's point end: the
    /// access walk, which may be longer than the walk radius), with their distances, by stop
    /// number.
    func boardingPoints(near latitude: Double, _ longitude: Double, within radius: Double) throws -> [(stop: StopNumber, metres: Double)] {
        var found: [(stop: StopNumber, metres: Double)] = []
        try timetable.forEachBoardingPoint(near: latitude, longitude, within: radius) { stop, otherLatitude, otherLongitude, _ in
            let distance = Geo.distance(latitude, longitude, otherLatitude, otherLongitude)
            if distance <= radius { found.append((stop, distance)) }
        }
        found.sort { $0.stop < $1.stop }
        return found
    }

    /// The boarding points other than `stop` within the walk radius of it, with their distances,
    /// by stop number: the same distances as `Geo.distance` from `stop`'s position (the same
    /// operations in the same order), with each candidate's latitude cosine the one its tile
    /// worked out when read.
    private func boardingPoints(nearStop stop: StopNumber) throws -> [(stop: StopNumber, metres: Double)] {
        guard let (latitude, longitude) = try timetable.position(ofStop: stop) else { return [] }
        let cosine = cos(latitude * .pi / 180)
        var found: [(stop: StopNumber, metres: Double)] = []
        try timetable.forEachBoardingPoint(near: latitude, longitude, within: maximumDistance) { other, otherLatitude, otherLongitude, otherCosine in
            guard other != stop else { return }
            // Geo.distance(latitude, longitude, otherLatitude, otherLongitude), term by term.
            let Δφ = (otherLatitude - latitude) * .pi / 180, Δλ = (otherLongitude - longitude) * .pi / 180
            let sinΔφ = sin(Δφ / 2), sinΔλ = sin(Δλ / 2)
            let a = sinΔφ * sinΔφ + cosine * otherCosine * sinΔλ * sinΔλ
            let distance = 2 * Geo.earthRadius * asin(min(1, sqrt(a)))
            if distance <= maximumDistance { found.append((other, distance)) }
        }
        found.sort { $0.stop < $1.stop }
        return found
    }

    /// Seconds to walk `metres`.
    func seconds(forMetres metres: Double) -> Int { Int((metres / speed).rounded(.up)) }

    /// The great-circle distance between two stops (nil when one has no position).
    func metres(from a: StopNumber, to b: StopNumber) throws -> Double? {
        guard let p = try timetable.position(ofStop: a), let q = try timetable.position(ofStop: b) else { return nil }
        return Geo.distance(p.latitude, p.longitude, q.latitude, q.longitude)
    }

    /// The most specific transfers.txt row for a → b (both boarding points of one feed), if any.
    func rule(from a: StopNumber, to b: StopNumber) throws -> PlannerTimetable.TransferRule? {
        let part = timetable.parts[timetable.part(ofStop: a)]
        guard timetable.part(ofStop: b) == timetable.part(ofStop: a), !part.transfersFrom.isEmpty else { return nil }
        let (keyA, keyB) = (timetable.key(ofStop: a), timetable.key(ofStop: b))
        let parentA = try timetable.parent(ofStop: a).map(timetable.key(ofStop:))
        let parentB = try timetable.parent(ofStop: b).map(timetable.key(ofStop:))
        for (from, to) in [(keyA, keyB), (keyA, parentB), (parentA, keyB), (parentA, parentB)] {
            guard let from, let to else { continue }
            if let rule = part.transfersFrom[from]?.first(where: { $0.to == to }) { return rule }
        }
        return nil
    }

    /// The walk a → b in seconds, or nil when there is none.
    func walk(from a: StopNumber, to b: StopNumber) throws -> Int? {
        guard a != b else { return nil }
        let distance = try metres(from: a, to: b)
        if let rule = try rule(from: a, to: b) {
            guard rule.type != 3 else { return nil }
            if let minimum = rule.minimumTime { return minimum }
            return distance.map(seconds(forMetres:))
        }
        guard let distance, distance <= maximumDistance else { return nil }
        return seconds(forMetres: distance)
    }

    /// Seconds to change at `stop` between two rides, or nil when no change is allowed there.
    func change(at stop: StopNumber) throws -> Int? {
        let known = Int(changes[stop])
        if known != 0 { return known == 1 ? nil : known - 2 }
        var result = 0
        if let rule = try rule(from: stop, to: stop) {
            switch rule.type {
            case 2: result = rule.minimumTime ?? 0
            case 3: result = -1
            default: result = 0
            }
        }
        changes[stop] = Int32(clamping: result + 2)
        return result < 0 ? nil : result
    }

    /// The walks leaving `stop` (towards other boarding points), with their seconds.
    func walks(from stop: StopNumber) throws -> [(stop: StopNumber, seconds: Int)] {
        if let known = outgoing[stop] { return known }
        if partHasNoRules[timetable.part(ofStop: stop)] { return try distanceWalks(stop) }
        var candidates = Set(try near(stop))
        let part = timetable.parts[timetable.part(ofStop: stop)]
        for key in [timetable.key(ofStop: stop), try timetable.parent(ofStop: stop).map(timetable.key(ofStop:))] {
            guard let key else { continue }
            for rule in part.transfersFrom[key] ?? [] { candidates.formUnion(try boardingPoints(ofKey: rule.to)) }
        }
        let found: [(stop: StopNumber, seconds: Int)] = try candidates.sorted().compactMap { other in try walk(from: stop, to: other).map { (other, $0) } }
        outgoing[stop] = found
        return found
    }

    /// The walks arriving at `stop` (from other boarding points), with their seconds.
    func walks(to stop: StopNumber) throws -> [(stop: StopNumber, seconds: Int)] {
        if let known = incoming[stop] { return known }
        if partHasNoRules[timetable.part(ofStop: stop)] { return try distanceWalks(stop) }
        var candidates = Set(try near(stop))
        let part = timetable.parts[timetable.part(ofStop: stop)]
        for key in [timetable.key(ofStop: stop), try timetable.parent(ofStop: stop).map(timetable.key(ofStop:))] {
            guard let key else { continue }
            for rule in part.transfersTo[key] ?? [] { candidates.formUnion(try boardingPoints(ofKey: rule.from)) }
        }
        let found: [(stop: StopNumber, seconds: Int)] = try candidates.sorted().compactMap { other in try walk(from: other, to: stop).map { (other, $0) } }
        incoming[stop] = found
        return found
    }

    /// The walks of a stop whose feed part has no transfers.txt rule: to and from every boarding
    /// point within the radius, by distance. A rule applies only between stops of one part, so
    /// none applies to them, and a distance is the same both ways: the walks leaving the stop
    /// and those arriving at it are one list, kept for both.
    private func distanceWalks(_ stop: StopNumber) throws -> [(stop: StopNumber, seconds: Int)] {
        let found = try boardingPoints(nearStop: stop).map { (stop: $0.stop, seconds: seconds(forMetres: $0.metres)) }
        outgoing[stop] = found
        incoming[stop] = found
        return found
    }

    /// The boarding points within the radius of `stop`.
    private func near(_ stop: StopNumber) throws -> [StopNumber] {
        guard let position = try timetable.position(ofStop: stop) else { return [] }
        return try boardingPoints(near: position.latitude, position.longitude, within: maximumDistance).map(\.stop)
    }

    /// A stop key's boarding points: the stop itself, or a station's children.
    func boardingPoints(ofKey key: Int) throws -> [StopNumber] {
        guard let number = timetable.stopNumber(ofKey: key) else { return [] }
        if try timetable.isBoardingPoint(number) { return [number] }
        return try timetable.children(ofStation: number)
    }
}
