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
    /// Boarding points by grid cell (about the walk radius across), in stop order: one array,
    /// each cell's stops a range of it, found through `denseCells` when the rows and columns the
    /// boarding points span are few enough (a city, a region: no hashing, made in one pass),
    /// else through `sparseCells` by cell key. Made for every process that plans.
    private let cellStops: [StopNumber]
    /// Per cell (row − `firstRow`) × `width` + (column − `firstColumn`), where its stops start in
    /// `cellStops` (one more entry at the end); empty when the cells are kept by key.
    private let denseCells: [Int32]
    private let firstRow: Int
    private let firstColumn: Int
    private let width: Int
    private let height: Int
    /// Per cell key (row × 1,000,003 + column), its stops' range in `cellStops`, when not dense;
    /// read for every stop's walks, so without dynamic exclusivity checks (nothing holds an
    /// access to it across a call).
    @exclusivity(unchecked) private var sparseCells: [Int: (start: Int, end: Int)] = [:]
    private let cellLatitude: Double
    private let cellLongitude: Double
    /// Per stop number, its walks once worked out (nil: not yet).
    private let outgoing: Slab<[(stop: StopNumber, seconds: Int)]?>
    private let incoming: Slab<[(stop: StopNumber, seconds: Int)]?>
    /// Per stop number, its position in degrees (NaN when the feed gives none), read once from
    /// the stop index so that measuring a walk is a plain load.
    private let latitudes: Slab<Double>
    private let longitudes: Slab<Double>
    /// Per stop number, the cosine of its latitude once worked out (NaN: not yet): each stop's
    /// cosine is computed once, not once for every pair it is measured in.
    private let cosines: Slab<Double>
    /// Per feed part, whether it has no transfers.txt rule the planner applies: its stops' walks
    /// then follow from distances alone, the same both ways.
    private let partHasNoRules: [Bool]
    /// Per stop number, its change time once worked out (`unknownChange`: not yet; −1: none allowed).
    @exclusivity(unchecked) private var changes: [Int]
    private static let unknownChange = Int.min
    /// Boarding points of each station, by the station's number.
    private var children: [StopNumber: [StopNumber]] = [:]

    init(timetable: PlannerTimetable, maximumDistance: Double, speed: Double) {
        self.timetable = timetable
        self.maximumDistance = maximumDistance
        self.speed = speed
        outgoing = Slab(count: timetable.stopCount, fill: nil)
        incoming = Slab(count: timetable.stopCount, fill: nil)
        cosines = Slab(count: timetable.stopCount, fill: .nan)
        partHasNoRules = timetable.parts.map { $0.transfersFrom.isEmpty && $0.transfersTo.isEmpty }
        changes = [Int](repeating: Walks.unknownChange, count: timetable.stopCount)
        let largestLatitude: Double
        (latitudes, longitudes, largestLatitude) = Walks.positions(of: timetable)
        cellLatitude = max(maximumDistance, 1) / (Geo.earthRadius * .pi / 180)
        cellLongitude = cellLatitude / max(cos(min(largestLatitude, 89) * .pi / 180), 0.01)
        let placed = Walks.cells(of: timetable, latitudes: latitudes, longitudes: longitudes, cellLatitude: cellLatitude, cellLongitude: cellLongitude)
        children = placed.children
        let grid = Walks.grid(placed.entries, rows: placed.rows, columns: placed.columns)
        (cellStops, denseCells, sparseCells) = (grid.cellStops, grid.denseCells, grid.sparseCells)
        (firstRow, firstColumn, height, width) = (grid.firstRow, grid.firstColumn, grid.height, grid.width)
    }

    /// Per stop number, its position in degrees (NaN when the feed gives none), and the largest
    /// latitude (in absolute value) of any.
    private static func positions(of timetable: PlannerTimetable) -> (latitudes: Slab<Double>, longitudes: Slab<Double>, largest: Double) {
        let latitudes = Slab<Double>(count: timetable.stopCount, fill: .nan)
        let longitudes = Slab<Double>(count: timetable.stopCount, fill: .nan)
        var largestLatitude = 0.0
        for stop in timetable.stopNumbers {
            if let position = timetable.position(ofStop: stop) {
                largestLatitude = max(largestLatitude, abs(position.latitude))
                latitudes[stop] = position.latitude
                longitudes[stop] = position.longitude
            }
        }
        return (latitudes, longitudes, largestLatitude)
    }

    /// The grid cell of each boarding point with a position, in stop order, with the rows and
    /// columns they span (min, max); and the boarding points of each station, by its number.
    private static func cells(of timetable: PlannerTimetable, latitudes: Slab<Double>, longitudes: Slab<Double>,
                              cellLatitude: Double, cellLongitude: Double)
        -> (entries: [(row: Int, column: Int, stop: StopNumber)], rows: (Int, Int), columns: (Int, Int), children: [StopNumber: [StopNumber]]) {
        var placed: [(row: Int, column: Int, stop: StopNumber)] = []
        placed.reserveCapacity(timetable.stopCount)
        var children: [StopNumber: [StopNumber]] = [:]
        var (rows, columns) = ((Int.max, Int.min), (Int.max, Int.min))
        for stop in timetable.stopNumbers where timetable.isBoardingPoint(stop) {
            if let parent = timetable.parent(ofStop: stop) { children[parent, default: []].append(stop) }
            let (latitude, longitude) = (latitudes[stop], longitudes[stop])
            guard !latitude.isNaN, !longitude.isNaN else { continue }
            let row = Int((latitude / cellLatitude).rounded(.down)), column = Int((longitude / cellLongitude).rounded(.down))
            placed.append((row, column, stop))
            rows = (min(rows.0, row), max(rows.1, row))
            columns = (min(columns.0, column), max(columns.1, column))
        }
        return (placed, rows, columns, children)
    }

    /// The boarding points by grid cell, as `cellStops` and `denseCells` or `sparseCells` keep them.
    private struct Grid {
        var cellStops: [StopNumber]
        var denseCells: [Int32] = []
        var sparseCells: [Int: (start: Int, end: Int)] = [:]
        var firstRow: Int
        var firstColumn: Int
        var height = 0
        var width = 0
    }

    /// The cells of `placed` (spanning `rows` and `columns`) by a counting sort, stops in order
    /// within each: count, place the cells' ranges, then fill them; dense when the rows and
    /// columns are few enough, else by cell key.
    private static func grid(_ placed: [(row: Int, column: Int, stop: StopNumber)], rows: (Int, Int), columns: (Int, Int)) -> Grid {
        var grid = Grid(cellStops: [StopNumber](repeating: StopNumber(0), count: placed.count), firstRow: rows.0, firstColumn: columns.0)
        let (height, width) = placed.isEmpty ? (0, 0) : (rows.1 - rows.0 + 1, columns.1 - columns.0 + 1)
        let (area, overflow) = height.multipliedReportingOverflow(by: width)
        if !placed.isEmpty, !overflow, area <= 8 * placed.count + 4096 {
            (grid.height, grid.width) = (height, width)
            // Each cell's count, then its end; filled from the back, so each end moves down to
            // the cell's start with no second array (a country's grid is a million cells).
            var starts = [Int32](repeating: 0, count: area + 1)
            for entry in placed { starts[(entry.row - rows.0) * width + (entry.column - columns.0)] += 1 }
            for index in 0..<area { starts[index + 1] += starts[index] }
            for entry in placed.reversed() {
                let index = (entry.row - rows.0) * width + (entry.column - columns.0)
                starts[index] -= 1
                grid.cellStops[Int(starts[index])] = entry.stop
            }
            grid.denseCells = starts
            return grid
        }
        var cells: [Int: (start: Int, end: Int)] = [:]
        for entry in placed { cells[entry.row &* 1_000_003 &+ entry.column, default: (0, 0)].end += 1 }
        var start = 0
        for index in cells.values.indices {
            let count = cells.values[index].end
            cells.values[index] = (start, start)
            start += count
        }
        for entry in placed {
            let key = entry.row &* 1_000_003 &+ entry.column
            guard let range = cells[key] else { continue }   // every cell was counted above
            grid.cellStops[range.end] = entry.stop
            cells[key] = (range.start, range.end + 1)
        }
        grid.sparseCells = cells
        return grid
    }

    /// The boarding points in the grid cell at `row`, `column`, in stop order.
    @inline(__always) private func stops(inRow row: Int, column: Int) -> ArraySlice<StopNumber> {
        if !denseCells.isEmpty {
            let (r, c) = (row - firstRow, column - firstColumn)
            guard r >= 0, r < height, c >= 0, c < width else { return [] }
            let index = r * width + c
            return cellStops[Int(denseCells[index])..<Int(denseCells[index + 1])]
        }
        guard let range = sparseCells[row &* 1_000_003 &+ column] else { return [] }
        return cellStops[range.start..<range.end]
    }

    /// The boarding points within `radius` metres of a position (a journey's point end: the
    /// access walk, which may be longer than the walk radius the grid is made for), with their
    /// distances: the cells `radius` can reach, or every boarding point when those cells would
    /// outnumber the stops (a tiny walk radius and a long access walk).
    func boardingPoints(near latitude: Double, _ longitude: Double, within radius: Double) -> [(stop: StopNumber, metres: Double)] {
        let span = Int((radius / max(maximumDistance, 1)).rounded(.up))
        var candidates: [StopNumber] = []
        if (2 * span + 1) * (2 * span + 1) > timetable.stopCount {
            candidates = timetable.stopNumbers.filter(timetable.isBoardingPoint)
        } else {
            let row = Int((latitude / cellLatitude).rounded(.down))
            let column = Int((longitude / cellLongitude).rounded(.down))
            for dr in -span...span {
                for dc in -span...span { candidates += stops(inRow: row + dr, column: column + dc) }
            }
        }
        var found: [(stop: StopNumber, metres: Double)] = []
        for stop in candidates {
            guard let position = timetable.position(ofStop: stop) else { continue }
            let distance = Geo.distance(latitude, longitude, position.latitude, position.longitude)
            if distance <= radius { found.append((stop, distance)) }
        }
        return found
    }

    /// The boarding points other than `stop` within the walk radius of it, with their distances,
    /// by stop number: the same distances as `Geo.distance` from `stop`'s position (the same
    /// operations in the same order), with each stop's latitude cosine computed once.
    private func boardingPoints(nearStop stop: StopNumber) -> [(stop: StopNumber, metres: Double)] {
        let (latitude, longitude) = (latitudes[stop], longitudes[stop])
        guard !latitude.isNaN, !longitude.isNaN else { return [] }
        let row = Int((latitude / cellLatitude).rounded(.down))
        let column = Int((longitude / cellLongitude).rounded(.down))
        let cosine = self.cosine(stop)
        var found: [(stop: StopNumber, metres: Double)] = []
        for dr in -1...1 {
            for dc in -1...1 {
                for other in stops(inRow: row + dr, column: column + dc) where other != stop {
                    let (otherLatitude, otherLongitude) = (latitudes[other], longitudes[other])
                    // Geo.distance(latitude, longitude, otherLatitude, otherLongitude), term by term.
                    let Δφ = (otherLatitude - latitude) * .pi / 180, Δλ = (otherLongitude - longitude) * .pi / 180
                    let sinΔφ = sin(Δφ / 2), sinΔλ = sin(Δλ / 2)
                    let a = sinΔφ * sinΔφ + cosine * self.cosine(other) * sinΔλ * sinΔλ
                    let distance = 2 * Geo.earthRadius * asin(min(1, sqrt(a)))
                    if distance <= maximumDistance { found.append((other, distance)) }
                }
            }
        }
        found.sort { $0.stop < $1.stop }
        return found
    }

    /// The cosine of stop `stop`'s latitude (as `Geo.distance` computes it), worked out once.
    @inline(__always) private func cosine(_ stop: StopNumber) -> Double {
        let known = cosines[stop]
        if !known.isNaN { return known }
        let value = cos(latitudes[stop] * .pi / 180)
        cosines[stop] = value
        return value
    }

    /// Seconds to walk `metres`.
    func seconds(forMetres metres: Double) -> Int { Int((metres / speed).rounded(.up)) }

    /// The great-circle distance between two stops (nil when one has no position).
    func metres(from a: StopNumber, to b: StopNumber) -> Double? {
        guard let p = timetable.position(ofStop: a), let q = timetable.position(ofStop: b) else { return nil }
        return Geo.distance(p.latitude, p.longitude, q.latitude, q.longitude)
    }

    /// The most specific transfers.txt row for a → b (both boarding points of one feed), if any.
    func rule(from a: StopNumber, to b: StopNumber) -> PlannerTimetable.TransferRule? {
        let part = timetable.parts[timetable.part(ofStop: a)]
        guard timetable.part(ofStop: b) == timetable.part(ofStop: a), !part.transfersFrom.isEmpty else { return nil }
        let (keyA, keyB) = (timetable.key(ofStop: a), timetable.key(ofStop: b))
        let parentA = timetable.parent(ofStop: a).map(timetable.key(ofStop:))
        let parentB = timetable.parent(ofStop: b).map(timetable.key(ofStop:))
        for (from, to) in [(keyA, keyB), (keyA, parentB), (parentA, keyB), (parentA, parentB)] {
            guard let from, let to else { continue }
            if let rule = part.transfersFrom[from]?.first(where: { $0.to == to }) { return rule }
        }
        return nil
    }

    /// The walk a → b in seconds, or nil when there is none.
    func walk(from a: StopNumber, to b: StopNumber) -> Int? {
        guard a != b else { return nil }
        let distance = metres(from: a, to: b)
        if let rule = rule(from: a, to: b) {
            guard rule.type != 3 else { return nil }
            if let minimum = rule.minimumTime { return minimum }
            return distance.map(seconds(forMetres:))
        }
        guard let distance, distance <= maximumDistance else { return nil }
        return seconds(forMetres: distance)
    }

    /// Seconds to change at `stop` between two rides, or nil when no change is allowed there.
    func change(at stop: StopNumber) -> Int? {
        let known = changes[stop.index]
        if known != Walks.unknownChange { return known < 0 ? nil : known }
        var result = 0
        if let rule = rule(from: stop, to: stop) {
            switch rule.type {
            case 2: result = rule.minimumTime ?? 0
            case 3: result = -1
            default: result = 0
            }
        }
        changes[stop.index] = result
        return result < 0 ? nil : result
    }

    /// The walks leaving `stop` (towards other boarding points), with their seconds.
    func walks(from stop: StopNumber) -> [(stop: StopNumber, seconds: Int)] {
        if let known = outgoing[stop] { return known }
        if partHasNoRules[timetable.part(ofStop: stop)] { return distanceWalks(stop) }
        var candidates = Set(near(stop))
        let part = timetable.parts[timetable.part(ofStop: stop)]
        for key in [timetable.key(ofStop: stop), timetable.parent(ofStop: stop).map(timetable.key(ofStop:))] {
            guard let key else { continue }
            for rule in part.transfersFrom[key] ?? [] { candidates.formUnion(boardingPoints(ofKey: rule.to)) }
        }
        let found: [(stop: StopNumber, seconds: Int)] = candidates.sorted().compactMap { other in walk(from: stop, to: other).map { (other, $0) } }
        outgoing[stop] = found
        return found
    }

    /// The walks arriving at `stop` (from other boarding points), with their seconds.
    func walks(to stop: StopNumber) -> [(stop: StopNumber, seconds: Int)] {
        if let known = incoming[stop] { return known }
        if partHasNoRules[timetable.part(ofStop: stop)] { return distanceWalks(stop) }
        var candidates = Set(near(stop))
        let part = timetable.parts[timetable.part(ofStop: stop)]
        for key in [timetable.key(ofStop: stop), timetable.parent(ofStop: stop).map(timetable.key(ofStop:))] {
            guard let key else { continue }
            for rule in part.transfersTo[key] ?? [] { candidates.formUnion(boardingPoints(ofKey: rule.from)) }
        }
        let found: [(stop: StopNumber, seconds: Int)] = candidates.sorted().compactMap { other in walk(from: other, to: stop).map { (other, $0) } }
        incoming[stop] = found
        return found
    }

    /// The walks of a stop whose feed part has no transfers.txt rule: to and from every boarding
    /// point within the radius, by distance. A rule applies only between stops of one part, so
    /// none applies to them, and a distance is the same both ways: the walks leaving the stop
    /// and those arriving at it are one list, kept for both.
    private func distanceWalks(_ stop: StopNumber) -> [(stop: StopNumber, seconds: Int)] {
        let found = boardingPoints(nearStop: stop).map { (stop: $0.stop, seconds: seconds(forMetres: $0.metres)) }
        outgoing[stop] = found
        incoming[stop] = found
        return found
    }

    /// The boarding points within the radius of `stop`.
    private func near(_ stop: StopNumber) -> [StopNumber] {
        guard let position = timetable.position(ofStop: stop) else { return [] }
        return boardingPoints(near: position.latitude, position.longitude, within: maximumDistance).map(\.stop)
    }

    /// A stop key's boarding points: the stop itself, or a station's children.
    func boardingPoints(ofKey key: Int) -> [StopNumber] {
        guard let number = timetable.stopNumber(ofKey: key) else { return [] }
        if timetable.isBoardingPoint(number) { return [number] }
        return children[number] ?? []
    }
}
