/// A stop as the journey planner numbers it: dense across the loaded feeds (0..<stopCount, a
/// feed's stops following the previous feed's), so that labels, walks and positions are arrays
/// indexed by it. Not a database key (`stops.id`, `Int`): `PlannerTimetable.stopNumber(ofKey:)`
/// and `key(ofStop:)` convert between the two.
struct StopNumber: Hashable, Comparable {
    /// The number, as a pattern's scan form stores it (`ScannedPattern.stopNumbers`).
    let rawValue: Int32

    @inline(__always) init(rawValue: Int32) { self.rawValue = rawValue }

    /// Stop number `index` (0..<stopCount).
    @inline(__always) init(_ index: Int) { rawValue = Int32(index) }

    /// The number as an index into an array of one entry per stop.
    @inline(__always) var index: Int { Int(rawValue) }

    @inline(__always) static func < (a: StopNumber, b: StopNumber) -> Bool { a.rawValue < b.rawValue }
}
