/// The lower bounds a journey search prunes with (`PlannerBoundsBuilder` explains how they are
/// made and why they hold): for every two cells of a feed's stops, seconds no journey from one to
/// the other can beat.
///
/// Stored (little-endian) in `planner_<feed>`: row −1, the header: a version (u32), the cell count
/// C (u32), the walk limit in metres (f64), the stop count N (u32) and each stop slot's cell (N ×
/// u16); row −2 − 2c, the bounds from every cell toward cell c; row −3 − 2c, those from cell c to
/// every cell (C × u16 each: seconds, or `unreachable`, or `noBound`); row −1,000,000 − 2c and
/// −1,000,001 − 2c, the fewest rides from every cell toward cell c and from cell c to every cell
/// (C × u8: rides, or `unreachableRides`; a database imported before them has none, and its
/// searches count no rides ahead). A question reads the header and the rows of its
/// destination's (or origin's) cells: a few KB.
final class PlannerBounds {
    static let version = 1
    static let headerID = -1
    /// The row of the bounds from every cell toward `cell`.
    static func towardID(_ cell: Int) -> Int { -2 - 2 * cell }
    /// The row of the bounds from `cell` to every cell.
    static func fromID(_ cell: Int) -> Int { -3 - 2 * cell }
    /// The row of the fewest rides from every cell toward `cell`.
    static func ridesTowardID(_ cell: Int) -> Int { -1_000_000 - 2 * cell }
    /// The row of the fewest rides from `cell` to every cell.
    static func ridesFromID(_ cell: Int) -> Int { -1_000_001 - 2 * cell }
    /// No journey joins the two cells (in rides).
    static let unreachableRides: UInt8 = 0xFF
    /// No journey joins the two cells.
    static let unreachable: UInt16 = 0xFFFF
    /// No sound bound: a journey from the cell may use times that go back along a trip.
    static let noBound: UInt16 = 0xFFFE
    /// Bounds longer than this (18 h) are stored as this: a smaller bound is still a bound.
    static let longest: UInt16 = 0xFFFD

    /// What a search adds to a label for a stop with no journey on to the destination (pruned
    /// whatever the best arrival), and for one with no sound bound (never pruned).
    static let prunedAlways = Int.max / 2
    static let neverPruned = Int.min / 4

    let cellCount: Int
    /// Walks between rides may be this long (metres) for the bounds to hold.
    let walkLimit: Double
    /// Per stop slot of the feed, its cell.
    let cellOfStop: [UInt16]

    /// Per cell, how many stops it holds.
    private(set) lazy var stopsPerCell: [Int] = {
        var counts = [Int](repeating: 0, count: cellCount)
        for cell in cellOfStop where Int(cell) < cellCount { counts[Int(cell)] += 1 }
        return counts
    }()

    /// The bounds whose header is `header`; nil for another version's.
    init?(header: UnsafeRawBufferPointer) throws {
        var reader = PackedReader(header)
        guard try reader.uint32() == PlannerBounds.version else { return nil }
        cellCount = Int(try reader.uint32())
        walkLimit = try reader.double()
        cellOfStop = try reader.integers(Int(try reader.uint32()), of: UInt16.self)
    }

    /// Per cell, the seconds a search adds to a label there (`remaining`): the least bound from
    /// the cell toward any of `cells` (`toward`), or from any of them to the cell, each row read
    /// by `row` (its id; its values).
    func remaining(_ cells: Set<Int>, toward: Bool, row: (Int) throws -> [UInt16]) throws -> [Int] {
        var least = [Int](repeating: PlannerBounds.prunedAlways, count: cellCount)
        for cell in cells.sorted() {
            let values = try row(toward ? PlannerBounds.towardID(cell) : PlannerBounds.fromID(cell))
            guard values.count == cellCount else { throw PackedReader.Truncated() }
            for (other, value) in values.enumerated() {
                let seconds = value == PlannerBounds.unreachable ? PlannerBounds.prunedAlways
                    : value == PlannerBounds.noBound ? PlannerBounds.neverPruned : Int(value)
                least[other] = min(least[other], seconds)
            }
        }
        return least
    }

    /// Per cell, the fewest rides from it toward any of `cells` (`toward`), or from any of them
    /// to it, each row read by `row` (its id; its values); nil when they are not stored.
    func fewestRides(_ cells: Set<Int>, toward: Bool, row: (Int) throws -> [UInt8]) throws -> [Int]? {
        var least = [Int](repeating: PlannerBounds.prunedAlways, count: cellCount)
        for cell in cells.sorted() {
            let values = try row(toward ? PlannerBounds.ridesTowardID(cell) : PlannerBounds.ridesFromID(cell))
            guard !values.isEmpty else { return nil }
            guard values.count == cellCount else { throw PackedReader.Truncated() }
            for (other, value) in values.enumerated() where value != PlannerBounds.unreachableRides {
                least[other] = min(least[other], Int(value))
            }
        }
        return least
    }
}
