/// Writes the lower bounds a journey search prunes with (`PlannerBounds`, the rows below 0 of
/// `planner_<feed>`): for every two areas of the feed (`BoundCells`), a time no journey between
/// them can beat.
///
/// The bounds are shortest paths in a graph over the cells, built so that every journey the
/// planner can make is a path in it no shorter than the journey:
/// - a ride: between consecutive calls of a pattern that can be boarded or left, p then q, an
///   edge of the least, over the pattern's runs, of `min(departure(q), arrival(q)) − departure(p)`.
///   Along a ride from i to j these add up to at most `arrival(j) − departure(i)` (the departures
///   between telescope), whatever the times do in between;
/// - a walk: an edge of 0 between two cells holding two stops within `walkLimit` of each other,
///   and between the cells of the two ends (or their boarding points) of every transfers.txt row
///   the planner applies, whatever its distance;
/// - a change at a stop costs 0, which a stop's change rule can only lengthen;
/// - no two walks in a row (`BoundGraph`), as no journey takes them.
/// The same graph, each ride one step whatever its times, gives the fewest rides between two
/// cells: a pattern joins each of its cells to every later one.
/// An edge below 0 (times that go back along a trip) would make a shortest path unsound, so every
/// cell from which such an edge can be reached is stored as having no bound: a search never
/// prunes there. A search whose walks may be longer than `walkLimit` does not prune at all.
struct PlannerBoundsBuilder {
    /// Walks between rides may be this long (metres) for the bounds to hold.
    static let walkLimit = 2_000.0

    let feedKey: Int
    /// Per (from slot, to slot) of consecutive usable calls, the least time between them.
    private var hops: [Int: Int32] = [:]

    init(feedKey: Int) {
        self.feedKey = feedKey
    }

    /// Notes the calls of one stored pattern.
    mutating func add(_ pattern: TripPattern) {
        let base = FeedKeys.base(of: feedKey)
        let usable = pattern.stops.indices.filter { pattern.canBoard(at: $0) || pattern.canAlight(at: $0) }
        for (p, q) in zip(usable, usable.dropFirst()) {
            var least = Int.max
            for run in 0..<pattern.runCount {
                let leaving = pattern.departure(run: run, at: p)
                least = min(least, pattern.departure(run: run, at: q) - leaving, pattern.arrival(run: run, at: q) - leaving)
            }
            let key = (pattern.stops[p] - base - 1) << 32 | (pattern.stops[q] - base - 1)
            hops[key] = min(hops[key] ?? .max, Int32(clamping: least))
        }
    }

    /// The rows to store: the header (the cells of the stops) and each cell's two rows of bounds
    /// and two of fewest rides, for the stops at `latitudes`/`longitudes` with station `parents`
    /// (by slot), the stops (keys) of every pattern, and the transfers.txt rows the planner
    /// applies.
    func rows(latitudes: [Double], longitudes: [Double], parents: [Int32], patternStops: [[Int]],
              transfers: [PlannerTimetable.TransferRule]) -> [(id: Int, bytes: [UInt8])] {
        let cells = BoundCells(latitudes: latitudes, longitudes: longitudes)
        var graph = BoundGraph(cellCount: cells.count)
        for (key, seconds) in hops {
            graph.addRide(Int(cells.cellOfStop[key >> 32]), Int(cells.cellOfStop[key & 0xFFFF_FFFF]), Int(seconds))
        }
        let base = FeedKeys.base(of: feedKey)
        for stops in patternStops { graph.addRideReach(stops.map { Int(cells.cellOfStop[$0 - base - 1]) }) }
        for (a, b) in cells.pairs(latitudes: latitudes, longitudes: longitudes, within: PlannerBoundsBuilder.walkLimit) { graph.addWalk(a, b) }
        var children: [Int: [Int]] = [:]
        for (slot, parent) in parents.enumerated() where parent >= 0 { children[Int(parent), default: []].append(slot) }
        func cellsOf(key: Int) -> [Int] {
            let slot = key - base - 1
            guard slot >= 0, slot < cells.cellOfStop.count else { return [] }
            return ([slot] + (children[slot] ?? [])).map { Int(cells.cellOfStop[$0]) }
        }
        for rule in transfers where rule.type != 3 {
            for a in cellsOf(key: rule.from) { for b in cellsOf(key: rule.to) { graph.addWalk(a, b) } }
        }
        let matrix = graph.shortestPaths()
        let rides = graph.fewestRides()
        var header = PackedWriter()
        header.append(UInt32(PlannerBounds.version))
        header.append(UInt32(cells.count))
        header.append(PlannerBoundsBuilder.walkLimit)
        header.append(UInt32(cells.cellOfStop.count))
        for cell in cells.cellOfStop { header.append(cell) }
        var rows: [(id: Int, bytes: [UInt8])] = [(PlannerBounds.headerID, header.bytes)]
        for cell in 0..<cells.count {
            var toward = PackedWriter(), from = PackedWriter()
            for other in 0..<cells.count {
                toward.append(matrix[other * cells.count + cell])
                from.append(matrix[cell * cells.count + other])
            }
            rows.append((PlannerBounds.towardID(cell), toward.bytes))
            rows.append((PlannerBounds.fromID(cell), from.bytes))
            rows.append((PlannerBounds.ridesTowardID(cell), (0..<cells.count).map { rides[$0 * cells.count + cell] }))
            rows.append((PlannerBounds.ridesFromID(cell), Array(rides[(cell * cells.count)..<((cell + 1) * cells.count)])))
        }
        return rows
    }
}
