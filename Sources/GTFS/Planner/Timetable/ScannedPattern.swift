/// A pattern as a search scans it: the stop numbers, permissions and times of `TripPattern`, in
/// one allocation read through plain pointers (no reference counting, no bounds checks), with
/// the earliest and latest usable times. Laid out as: stop count, run count, earliest, latest
/// (Int64 each); S stop numbers (Int32); S permission bytes, padded to 4 bytes; S × R arrivals
/// then S × R departures (Int32, stop-major as stored, in the host's byte order).
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

    private static let headerBytes = 32

    /// The scan form of a pattern with `permissions` and `runCount` runs whose times are stored
    /// at `storedTimes` (little-endian, unaligned: arrivals then departures, stop-major); its
    /// stop numbers are −1 until the timetable sets them.
    init(permissions: [UInt8], runCount: Int, storedTimes: UnsafeRawPointer?) {
        let stopCount = permissions.count
        let permissionBytes = (stopCount + 3) / 4 * 4
        let timesOffset = ScannedPattern.headerBytes + 4 * stopCount + permissionBytes
        let block = UnsafeMutableRawPointer.allocate(byteCount: timesOffset + 8 * stopCount * runCount, alignment: 8)
        let numbers = (block + ScannedPattern.headerBytes).bindMemory(to: Int32.self, capacity: stopCount)
        numbers.initialize(repeating: -1, count: stopCount)
        let allowed = (block + ScannedPattern.headerBytes + 4 * stopCount).bindMemory(to: UInt8.self, capacity: permissionBytes)
        allowed.initialize(repeating: 0, count: permissionBytes)
        for (position, permission) in permissions.enumerated() { allowed[position] = permission }
        let times = (block + timesOffset).bindMemory(to: Int32.self, capacity: 2 * stopCount * runCount)
        if let storedTimes {
            for index in 0..<(2 * stopCount * runCount) {
                times[index] = Int32(littleEndian: storedTimes.loadUnaligned(fromByteOffset: index * 4, as: Int32.self))
            }
        } else {
            times.initialize(repeating: 0, count: 2 * stopCount * runCount)
        }
        // The earliest and latest times a search can use (runs are sorted at every stop).
        var earliest = Int.max, latest = Int.min
        for position in 0..<stopCount where runCount > 0 {
            if permissions[position] & TripPattern.boarding != 0 { earliest = min(earliest, Int(times[stopCount * runCount + position * runCount])) }
            if permissions[position] & TripPattern.alighting != 0 { latest = max(latest, Int(times[position * runCount + runCount - 1])) }
        }
        let header = block.bindMemory(to: Int64.self, capacity: 4)
        (header[0], header[1], header[2], header[3]) = (Int64(stopCount), Int64(runCount), Int64(earliest), Int64(latest))
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
        departures = arrivals + stopCount * runCount
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

    /// Frees the allocation (its pattern's deinit).
    func deallocate() { block.deallocate() }
}
