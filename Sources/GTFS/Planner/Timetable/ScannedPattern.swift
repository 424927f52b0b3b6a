/// A pattern as a search scans it: the stop numbers, permissions and times of `TripPattern`, in
/// one allocation read through plain pointers (no reference counting, no bounds checks), with
/// the earliest and latest usable times. Laid out as: stop count, run count, earliest, latest,
/// whether the departures are the arrivals (Int64 each); S stop numbers (Int32); S permission
/// bytes, padded to 4 bytes; S × R arrivals then, unless they are the same, S × R departures
/// (Int32, stop-major as stored, in the host's byte order). A question across a country reads
/// tens of thousands of patterns, and the fresh pages they fill are a quarter of its time (perf):
/// most patterns depart when they arrive, and keep one copy of their times.
struct ScannedPattern {
    let stopCount: Int
    let runCount: Int
    let earliestTime: Int
    let latestTime: Int
    let stopNumbers: UnsafeMutablePointer<Int32>
    private let permissions: UnsafeMutablePointer<UInt8>
    private let arrivals: UnsafeMutablePointer<Int32>
    private let departures: UnsafeMutablePointer<Int32>
    /// The allocation: what the timetable keeps per pattern number (`init(block:)` reads it).
    let block: UnsafeMutableRawPointer

    private static let headerBytes = 40

    /// The scan form of a pattern with `permissions` and `runCount` runs whose times are stored
    /// at `storedTimes` (little-endian, unaligned: arrivals then departures, stop-major, as the
    /// first stored form has them); its stop numbers are −1 until the timetable sets them.
    init(permissions: [UInt8], runCount: Int, storedTimes: UnsafeRawPointer?, arena: PatternArena? = nil) {
        self.init(permissions: permissions, runCount: runCount, departuresAreArrivals: false, arena: arena) { times in
            guard let storedTimes else { return times.initialize(repeating: 0, count: 2 * permissions.count * runCount) }
            for index in 0..<(2 * permissions.count * runCount) {
                times[index] = Int32(littleEndian: storedTimes.loadUnaligned(fromByteOffset: index * 4, as: Int32.self))
            }
        }
    }

    /// The scan form of a pattern with `permissions` and `runCount` runs whose times `fill`
    /// writes (S × R arrivals then, unless `departuresAreArrivals`, S × R departures,
    /// stop-major), in memory of its own or, given one, of `arena`; freed again when it throws
    /// (in an arena, left unused).
    init(permissions: [UInt8], runCount: Int, departuresAreArrivals: Bool, arena: PatternArena? = nil,
         fill: (UnsafeMutablePointer<Int32>) throws -> Void) rethrows {
        let stopCount = permissions.count
        let permissionBytes = (stopCount + 3) / 4 * 4
        let timesOffset = ScannedPattern.headerBytes + 4 * stopCount + permissionBytes
        let grids = departuresAreArrivals ? 1 : 2
        let byteCount = timesOffset + 4 * grids * stopCount * runCount
        let block = arena?.allocate(byteCount: byteCount) ?? UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 8)
        let numbers = (block + ScannedPattern.headerBytes).bindMemory(to: Int32.self, capacity: stopCount)
        numbers.initialize(repeating: -1, count: stopCount)
        let allowed = (block + ScannedPattern.headerBytes + 4 * stopCount).bindMemory(to: UInt8.self, capacity: permissionBytes)
        allowed.initialize(repeating: 0, count: permissionBytes)
        for (position, permission) in permissions.enumerated() { allowed[position] = permission }
        let times = (block + timesOffset).bindMemory(to: Int32.self, capacity: grids * stopCount * runCount)
        do { try fill(times) } catch {
            if arena == nil { block.deallocate() }
            throw error
        }
        // The earliest and latest times a search can use (runs are sorted at every stop).
        var earliest = Int.max, latest = Int.min
        let departures = times + (grids - 1) * stopCount * runCount
        for position in 0..<stopCount where runCount > 0 {
            if permissions[position] & TripPattern.boarding != 0 { earliest = min(earliest, Int(departures[position * runCount])) }
            if permissions[position] & TripPattern.alighting != 0 { latest = max(latest, Int(times[position * runCount + runCount - 1])) }
        }
        let header = block.bindMemory(to: Int64.self, capacity: 5)
        (header[0], header[1], header[2], header[3]) = (Int64(stopCount), Int64(runCount), Int64(earliest), Int64(latest))
        header[4] = departuresAreArrivals ? 1 : 0
        self.init(block: block)
    }

    /// The pattern whose scan form starts at `block`.
    @inline(__always) init(block: UnsafeMutableRawPointer) {
        self.block = block
        let header = block.assumingMemoryBound(to: Int64.self)
        (stopCount, runCount, earliestTime, latestTime) = (Int(header[0]), Int(header[1]), Int(header[2]), Int(header[3]))
        let permissionBytes = (stopCount + 3) / 4 * 4
        stopNumbers = (block + ScannedPattern.headerBytes).assumingMemoryBound(to: Int32.self)
        permissions = (block + ScannedPattern.headerBytes + 4 * stopCount).assumingMemoryBound(to: UInt8.self)
        arrivals = (block + ScannedPattern.headerBytes + 4 * stopCount + permissionBytes).assumingMemoryBound(to: Int32.self)
        departures = header[4] != 0 ? arrivals : arrivals + stopCount * runCount
    }

    /// The stop number at `position`, as stored (−1: a stop the timetable does not know). The
    /// accessors check their bounds in debug builds only: a release scan reads with one load.
    @inline(__always) func stopNumber(at position: Int) -> Int32 {
        assert(position >= 0 && position < stopCount, "position \(position) outside 0..<\(stopCount)")
        return stopNumbers[position]
    }

    @inline(__always) func canBoard(at position: Int) -> Bool {
        assert(position >= 0 && position < stopCount, "position \(position) outside 0..<\(stopCount)")
        return permissions[position] & TripPattern.boarding != 0
    }

    @inline(__always) func canAlight(at position: Int) -> Bool {
        assert(position >= 0 && position < stopCount, "position \(position) outside 0..<\(stopCount)")
        return permissions[position] & TripPattern.alighting != 0
    }

    @inline(__always) func arrival(run: Int, at position: Int) -> Int {
        assert(position >= 0 && position < stopCount && run >= 0 && run < runCount, "run \(run) at \(position) outside \(runCount) × \(stopCount)")
        return Int(arrivals[position * runCount + run])
    }

    @inline(__always) func departure(run: Int, at position: Int) -> Int {
        assert(position >= 0 && position < stopCount && run >= 0 && run < runCount, "run \(run) at \(position) outside \(runCount) × \(stopCount)")
        return Int(departures[position * runCount + run])
    }

    /// Frees the allocation (its pattern's deinit, unless an arena holds it).
    func deallocate() { block.deallocate() }
}
