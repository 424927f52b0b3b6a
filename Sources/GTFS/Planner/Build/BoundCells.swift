#if canImport(Glibc)
import Glibc
#endif

/// The areas the planner's lower bounds are kept between (`PlannerBoundsBuilder`): the feed's
/// stops put in the cells of a latitude/longitude grid whose size is chosen so that at most
/// `maximumCells` cells hold a stop (a city gets a few hundred metres a cell, a country a few
/// kilometres), numbered densely; the stops without a position share one more cell of their own.
struct BoundCells {
    /// Per stop slot, its cell's number (`unplaced` for a stop without a position).
    let cellOfStop: [UInt16]
    /// The number of cells, the cell of the unplaced stops (the last) included.
    let count: Int
    /// The largest latitude of any stop, in absolute value (degrees).
    private let largestLatitude: Double

    /// At most this many cells hold placed stops: each cell's bounds are two rows of this many
    /// 2-byte values, so 4 MB of the file at most and 2 KB a question reads.
    static let maximumCells = 1024

    /// The cells of stops at `latitudes` and `longitudes` (by slot; NaN: no position).
    init(latitudes: [Double], longitudes: [Double]) {
        let placed = latitudes.indices.filter { !latitudes[$0].isNaN && !longitudes[$0].isNaN }
        largestLatitude = placed.map { abs(latitudes[$0]) }.max() ?? 0
        let squeeze = max(cos(min(largestLatitude, 89) * .pi / 180), 0.01)
        func key(_ slot: Int, _ size: Double) -> (row: Int, column: Int) {
            (Int((latitudes[slot] / size).rounded(.down)), Int((longitudes[slot] * squeeze / size).rounded(.down)))
        }
        func cellCount(_ size: Double) -> Int {
            var seen = Set<Int>()
            for slot in placed {
                let (row, column) = key(slot, size)
                seen.insert(row &* 4_000_037 &+ column)
                if seen.count > BoundCells.maximumCells { break }
            }
            return seen.count
        }
        // The smallest size (each step a quarter smaller) that keeps the cells few enough.
        var size = 0.001
        while cellCount(size) > BoundCells.maximumCells { size *= 1.25 }
        while size > 0.000_01, cellCount(size / 1.25) <= BoundCells.maximumCells { size /= 1.25 }
        var numbers: [Int: Int] = [:]
        var placedCells = 0
        var cellOfStop = [UInt16](repeating: 0, count: latitudes.count)
        for slot in placed {
            let cell = key(slot, size)
            let packedKey = cell.row &* 4_000_037 &+ cell.column
            if numbers[packedKey] == nil {
                numbers[packedKey] = placedCells
                placedCells += 1
            }
            cellOfStop[slot] = UInt16(numbers[packedKey]!)
        }
        let unplaced = UInt16(placedCells)
        for slot in latitudes.indices where latitudes[slot].isNaN || longitudes[slot].isNaN { cellOfStop[slot] = unplaced }
        self.cellOfStop = cellOfStop
        count = placedCells + 1
    }

    /// The cell holding the stops without a position.
    var unplaced: Int { count - 1 }

    /// The pairs of distinct cells holding two stops (of those at `latitudes`/`longitudes`)
    /// within `metres` of each other on the great circle, as `Walks` measures a walk: each stop
    /// is held to the stops of its own and the eight neighbouring squares of a grid `metres`
    /// across (in `Walks`'s degrees), measuring only pairs of cells not yet joined.
    func pairs(latitudes: [Double], longitudes: [Double], within metres: Double) -> [(Int, Int)] {
        let latitudeSpan = metres / (Geo.earthRadius * .pi / 180)
        let longitudeSpan = latitudeSpan / max(cos(min(largestLatitude, 89) * .pi / 180), 0.01)
        var squares: [Int: [Int]] = [:]
        func square(_ row: Int, _ column: Int) -> Int { row &* 4_000_037 &+ column }
        func place(_ slot: Int) -> (row: Int, column: Int) {
            (Int((latitudes[slot] / latitudeSpan).rounded(.down)), Int((longitudes[slot] / longitudeSpan).rounded(.down)))
        }
        let placed = cellOfStop.indices.filter { Int(cellOfStop[$0]) != unplaced }
        for slot in placed {
            let (row, column) = place(slot)
            squares[square(row, column), default: []].append(slot)
        }
        // Each pair as first × count + second.
        var pairs = Set<Int>()
        for a in placed {
            let (row, column) = place(a)
            let cellA = Int(cellOfStop[a])
            for dr in -1...1 {
                for dc in -1...1 {
                    for b in squares[square(row + dr, column + dc)] ?? [] {
                        let cellB = Int(cellOfStop[b])
                        guard cellA != cellB, !pairs.contains(cellA * count + cellB),
                              Geo.distance(latitudes[a], longitudes[a], latitudes[b], longitudes[b]) <= metres else { continue }
                        pairs.insert(cellA * count + cellB)
                    }
                }
            }
        }
        return pairs.sorted().map { ($0 / count, $0 % count) }
    }
}
