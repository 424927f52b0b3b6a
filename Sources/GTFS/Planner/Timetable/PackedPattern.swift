/// The stored form of a `TripPattern`: one BLOB of `planner_<feed>`, written at import and read
/// the first time a search reaches one of its stops.
///
/// Written compactly, as a question's cost across a country is mostly the bytes of the patterns
/// it reads (docs/journeys.md): the marker `compactMarker`, stop count S, run count R (u32 each),
/// a flags byte; then as variable-length integers (`PackedWriter.appendVariable`) each stop key,
/// trip key and service key less the one before it, with the S permission bytes after the stops;
/// then the S × R arrivals (stop-major: all runs at stop 0, then at stop 1, …), each as its
/// difference from `prediction` (the previous run's time at this stop, moved by how long that run
/// took from the previous stop): regular timetables store 0, one byte, for most times. The
/// departures follow the same way as dwell times (departure − arrival), unless the flags say every
/// departure equals its arrival. On the national feed this is a fifth of the first form's bytes.
///
/// The first form (S, R, S keys as i64, S permissions, 2 R keys as i64, then 2 S R times as i32),
/// written by databases imported before, is still read: its first 4 bytes, the stop count, are
/// never the marker.
enum PackedPattern {
    /// The first 4 bytes of the compact form.
    static let compactMarker: UInt32 = 0xFFFF_FFFF
    /// Flags bit: every departure equals its arrival, and the departures are not stored.
    static let departuresAreArrivals: UInt8 = 1

    /// A pattern as read back: its keys and permissions, and its times in scan form.
    struct Decoded {
        let stops: [Int]
        let permissions: [UInt8]
        let trips: [Int]
        let services: [Int]
        let scanned: ScannedPattern
    }

    /// The compact stored form of a pattern with these stops, permissions and runs (`arrivals`
    /// and `departures` stop-major).
    static func bytes(stops: [Int], permissions: [UInt8], trips: [Int], services: [Int], arrivals: [Int32], departures: [Int32]) -> [UInt8] {
        let sameTimes = arrivals == departures
        var writer = PackedWriter()
        writer.append(compactMarker)
        writer.append(UInt32(stops.count))
        writer.append(UInt32(trips.count))
        writer.append(sameTimes ? departuresAreArrivals : 0)
        appendDifferences(stops, to: &writer)
        for permission in permissions { writer.append(permission) }
        appendDifferences(trips, to: &writer)
        appendDifferences(services, to: &writer)
        appendGrid(arrivals, runs: trips.count, to: &writer)
        if !sameTimes { appendGrid(zip(departures, arrivals).map { $0 &- $1 }, runs: trips.count, to: &writer) }
        return writer.bytes
    }

    /// The pattern stored as `stored`, in either form; `Truncated` when it ends early or its
    /// counts cannot fit in it (a damaged row). The scan form is made in `arena` when given one.
    static func decode(_ stored: UnsafeRawBufferPointer, arena: PatternArena? = nil) throws -> Decoded {
        var reader = PackedReader(stored)
        let first = try reader.uint32()
        guard first == compactMarker else { return try decodeFirstForm(stored, arena: arena) }
        let stopCount = Int(try reader.uint32())
        let runCount = Int(try reader.uint32())
        let flags = try reader.uint8()
        // Counts read from a damaged row may be huge: every stop, run and time takes a byte.
        let (cells, overflow) = stopCount.multipliedReportingOverflow(by: runCount)
        guard !overflow, reader.hasBytes(2 * stopCount + 2 * runCount + cells) else { throw PackedReader.Truncated() }
        let stops = try differences(stopCount, from: &reader)
        let permissions = try reader.bytes(stopCount)
        let trips = try differences(runCount, from: &reader)
        let services = try differences(runCount, from: &reader)
        let shared = flags & departuresAreArrivals != 0
        let scanned = try ScannedPattern(permissions: permissions, runCount: runCount, departuresAreArrivals: shared, arena: arena) { times in
            try readGrid(into: times, stops: stopCount, runs: runCount, from: &reader)
            guard !shared else { return }
            let departures = times + cells
            try readGrid(into: departures, stops: stopCount, runs: runCount, from: &reader)
            for index in 0..<cells { departures[index] = departures[index] &+ times[index] }
        }
        return Decoded(stops: stops, permissions: permissions, trips: trips, services: services, scanned: scanned)
    }

    /// The first stored form (see the type's comment).
    private static func decodeFirstForm(_ stored: UnsafeRawBufferPointer, arena: PatternArena?) throws -> Decoded {
        var reader = PackedReader(stored)
        let stopCount = Int(try reader.uint32())
        let runCount = Int(try reader.uint32())
        let (cells, overflow) = stopCount.multipliedReportingOverflow(by: runCount)
        guard !overflow, cells <= stored.count, reader.hasBytes(stopCount * 9 + runCount * 16 + cells * 8) else { throw PackedReader.Truncated() }
        let stops = try reader.integers(stopCount, of: Int64.self, as: Int.self)
        let permissions = try reader.bytes(stopCount)
        let trips = try reader.integers(runCount, of: Int64.self, as: Int.self)
        let services = try reader.integers(runCount, of: Int64.self, as: Int.self)
        let times = stored.baseAddress.map { UnsafeRawPointer($0) + reader.offset }
        let scanned = ScannedPattern(permissions: permissions, runCount: runCount, storedTimes: times, arena: arena)
        return Decoded(stops: stops, permissions: permissions, trips: trips, services: services, scanned: scanned)
    }

    /// What the codec predicts for the time of run `run` at `position` of a stop-major grid of
    /// `runs` runs, from the times before it: the previous run's time here plus this run's time
    /// at the previous stop less the previous run's there.
    @inline(__always) private static func prediction(_ grid: UnsafePointer<Int32>, position: Int, run: Int, runs: Int) -> Int {
        let index = position * runs + run
        switch (position, run) {
        case (0, 0): return 0
        case (0, _): return Int(grid[index - 1])
        case (_, 0): return Int(grid[index - runs])
        default: return Int(grid[index - 1]) + Int(grid[index - runs]) - Int(grid[index - runs - 1])
        }
    }

    private static func appendGrid(_ grid: [Int32], runs: Int, to writer: inout PackedWriter) {
        guard runs > 0 else { return }
        grid.withUnsafeBufferPointer { values in
            guard let base = values.baseAddress else { return }
            for position in 0..<(values.count / runs) {
                for run in 0..<runs {
                    writer.appendVariable(Int(base[position * runs + run]) - prediction(base, position: position, run: run, runs: runs))
                }
            }
        }
    }

    /// Reads what `appendGrid` wrote: `prediction` worked out with its terms kept in registers
    /// rather than read back from the grid, as this loop is most of what reading a pattern costs
    /// (`PackedPatternTests` holds the two to the same times on every pattern of the real feeds).
    private static func readGrid(into grid: UnsafeMutablePointer<Int32>, stops: Int, runs: Int, from reader: inout PackedReader) throws {
        for position in 0..<stops {
            let row = grid + position * runs
            var left = 0
            if position == 0 {
                try reader.forEachVariable(runs) { run, difference in
                    left = Int(Int32(truncatingIfNeeded: left &+ difference))
                    row[run] = Int32(truncatingIfNeeded: left)
                }
                continue
            }
            let above = UnsafePointer(row - runs)
            var aboveLeft = 0
            try reader.forEachVariable(runs) { run, difference in
                let up = Int(above[run])
                left = Int(Int32(truncatingIfNeeded: (run == 0 ? up : left &+ up &- aboveLeft) &+ difference))
                aboveLeft = up
                row[run] = Int32(truncatingIfNeeded: left)
            }
        }
    }

    private static func appendDifferences(_ keys: [Int], to writer: inout PackedWriter) {
        var previous = 0
        for key in keys {
            writer.appendVariable(key &- previous)
            previous = key
        }
    }

    private static func differences(_ count: Int, from reader: inout PackedReader) throws -> [Int] {
        var keys: [Int] = []
        keys.reserveCapacity(count)
        var previous = 0
        try reader.forEachVariable(count) { _, difference in
            previous = previous &+ difference
            keys.append(previous)
        }
        return keys
    }
}
