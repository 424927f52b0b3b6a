/// The graph over a feed's cells that `PlannerBoundsBuilder` takes shortest paths in: each edge
/// the least time any journey step between its two cells takes (below 0 where a feed's times go
/// back along a trip).
///
/// A journey walks at most once between two rides, so a path may not take two walks in a row:
/// each cell is two nodes, "after a ride" (from which a ride or a walk may follow; where a
/// journey starts) and "after a walk" (only a ride). Without that, walks of a few hundred metres
/// chained across a city would make every bound within it 0.
struct BoundGraph {
    let cellCount: Int
    /// Per cell, its ride and walk edges out: (to, seconds), the least kept per pair.
    private var rides: [[Int: Int]]
    private var walks: [[Int: Int]]
    /// Cells with an edge out below 0 (a loop included).
    private var negativeTails: Set<Int> = []
    /// Per (from, to), `from × cellCount + to`: whether one ride joins a stop of `from` to a
    /// later stop of `to` (`addRideReach`), for the fewest rides between cells.
    private var oneRide: [Bool]

    init(cellCount: Int) {
        self.cellCount = cellCount
        rides = [[Int: Int]](repeating: [:], count: cellCount)
        walks = [[Int: Int]](repeating: [:], count: cellCount)
        oneRide = [Bool](repeating: false, count: cellCount * cellCount)
    }

    /// Notes a pattern whose calls lie in `cells`, in order: one ride joins each to every later
    /// one (whether the calls may be boarded or left is not asked: more edges, a smaller bound).
    mutating func addRideReach(_ cells: [Int]) {
        var distinct: [Int] = []
        for cell in cells where distinct.last != cell { distinct.append(cell) }
        for (i, from) in distinct.enumerated() {
            for to in distinct[(i + 1)...] where to != from { oneRide[from * cellCount + to] = true }
        }
    }

    /// Adds a ride `from` → `to` of `seconds` (a loop matters only when below 0).
    mutating func addRide(_ from: Int, _ to: Int, _ seconds: Int) {
        if seconds < 0 { negativeTails.insert(from) }
        guard from != to else { return }
        rides[from][to] = min(rides[from][to] ?? .max, seconds)
    }

    /// Adds a walk `from` → `to` of no time.
    mutating func addWalk(_ from: Int, _ to: Int) {
        guard from != to else { return }
        walks[from][to] = 0
    }

    /// Per (from, to), `from × cellCount + to`: the shortest path's seconds (capped at
    /// `PlannerBounds.longest`), `PlannerBounds.unreachable` when there is none, or
    /// `PlannerBounds.noBound` from a cell that can reach an edge below 0.
    func shortestPaths() -> [UInt16] {
        var matrix = [UInt16](repeating: PlannerBounds.unreachable, count: cellCount * cellCount)
        let unbounded = cellsReaching(negativeTails)
        for source in 0..<cellCount {
            if unbounded.contains(source) {
                for to in 0..<cellCount { matrix[source * cellCount + to] = PlannerBounds.noBound }
                continue
            }
            for (to, seconds) in distances(from: source).enumerated() where seconds < Int.max {
                matrix[source * cellCount + to] = UInt16(min(seconds, Int(PlannerBounds.longest)))
            }
        }
        return matrix
    }

    /// Per (from, to), `from × cellCount + to`: the fewest rides any journey between the two cells
    /// takes (`PlannerBounds.unreachableRides` when none does), counting walks as `distances`
    /// does (no two in a row). Times play no part, so the bound holds whatever they do.
    func fewestRides() -> [UInt8] {
        var rideOut = [[Int32]](repeating: [], count: cellCount)
        for from in 0..<cellCount {
            for to in 0..<cellCount where oneRide[from * cellCount + to] { rideOut[from].append(Int32(to)) }
        }
        var matrix = [UInt8](repeating: PlannerBounds.unreachableRides, count: cellCount * cellCount)
        // Breadth first by rides: `level` holds the cells first reached after a ride with that
        // many rides; a walk from them reaches cells at the same count.
        var rides = [Int](repeating: Int.max, count: cellCount)
        var afterRide = [Int](repeating: Int.max, count: cellCount)
        for source in 0..<cellCount {
            for cell in 0..<cellCount { rides[cell] = .max; afterRide[cell] = .max }
            var level = [source]
            afterRide[source] = 0
            var count = 0
            while !level.isEmpty, count < Int(PlannerBounds.unreachableRides) {
                var boarding: [Int] = []
                for cell in level where rides[cell] > count { rides[cell] = count; boarding.append(cell) }
                for cell in level {
                    for to in walks[cell].keys where rides[to] > count { rides[to] = count; boarding.append(to) }
                }
                var next: [Int] = []
                for cell in boarding {
                    for to in rideOut[cell] where afterRide[Int(to)] == .max {
                        afterRide[Int(to)] = count + 1
                        next.append(Int(to))
                    }
                }
                level = next
                count += 1
            }
            for cell in 0..<cellCount where rides[cell] < Int(PlannerBounds.unreachableRides) {
                matrix[source * cellCount + cell] = UInt8(rides[cell])
            }
        }
        return matrix
    }

    /// The cells from which any of `targets` can be reached (themselves included).
    private func cellsReaching(_ targets: Set<Int>) -> Set<Int> {
        var incoming = [[Int]](repeating: [], count: cellCount)
        for edges in [rides, walks] {
            for (from, out) in edges.enumerated() { for to in out.keys { incoming[to].append(from) } }
        }
        var found = targets
        var pending = Array(targets)
        while let cell = pending.popLast() {
            for from in incoming[cell] where !found.contains(from) {
                found.insert(from)
                pending.append(from)
            }
        }
        return found
    }

    /// Dijkstra from `source` (after a ride) over edges of 0 or more (a cell reached from a
    /// bounded source never leads to an edge below 0): per cell, its distance after a ride or a
    /// walk, whichever is less (Int.max: unreached).
    private func distances(from source: Int) -> [Int] {
        // Node 2c: cell c after a ride; 2c + 1: after a walk.
        var distance = [Int](repeating: .max, count: 2 * cellCount)
        var done = [Bool](repeating: false, count: 2 * cellCount)
        var heap = MinimumHeap()
        distance[2 * source] = 0
        heap.push(0, 2 * source)
        func relax(_ node: Int, _ seconds: Int) {
            guard seconds < distance[node] else { return }
            distance[node] = seconds
            heap.push(seconds, node)
        }
        while let (seconds, node) = heap.pop() {
            if done[node] { continue }
            done[node] = true
            let cell = node / 2
            for (to, step) in rides[cell] { relax(2 * to, seconds + step) }
            if node % 2 == 0 { for to in walks[cell].keys { relax(2 * to + 1, seconds) } }
        }
        return (0..<cellCount).map { min(distance[2 * $0], distance[2 * $0 + 1]) }
    }
}
