/// The runs of one stop pattern, as the journey planner stores and scans them.
///
/// A pattern is a sequence of stops with, at each, whether a rider may board (`pickup_type` ≠ 1
/// and a departure time) and alight (`drop_off_type` ≠ 1 and an arrival time); every run of it
/// (a trip, or one run of a `frequencies.txt` trip) has the same stops and the same permissions,
/// and no run overtakes another: at every stop each run's arrival and departure are at or after
/// the previous run's. So at each stop the runs' times are sorted, the earliest run a rider can
/// catch is found by a binary search, and an earlier run is never worse at a later stop (the
/// property round-based searches (RAPTOR) need). Times are GTFS seconds of the run's service date.
///
/// Stored as one BLOB (little-endian): stop count S, run count R (u32 each); S stop keys (i64);
/// S permission bytes; R trip keys, R service keys (i64); S × R arrivals then S × R departures
/// (i32, stop-major: all runs at stop 0, then at stop 1, …). A read pattern keeps the stored
/// bytes as they are (one copy out of SQLite) and reads times from them in place.
public final class TripPattern: @unchecked Sendable {
    /// May board at this stop.
    static let boarding: UInt8 = 1
    /// May alight at this stop.
    static let alighting: UInt8 = 2

    /// The stops in order (database keys).
    public let stops: [Int]
    /// Per stop, `boarding` | `alighting`.
    let permissions: [UInt8]
    /// Per run, its trip's key (a frequency-based trip's runs share it).
    public let trips: [Int]
    /// Per run, its trip's service key.
    let services: [Int]
    /// The stored bytes (owned), and where the arrivals and departures start in them.
    private let bytes: UnsafeMutableRawPointer
    private let byteCount: Int
    private let arrivalsOffset: Int
    private let departuresOffset: Int
    /// The stops as the timetable numbers them, set when it reads the pattern (read at every
    /// scan, so without dynamic exclusivity checks: nothing holds an access to it across a call).
    @exclusivity(unchecked) var stopNumbers: [Int] = []
    /// Which runs run on each service date a search asked for (yyyymmdd), on the timetable or
    /// with realtime data applied, kept for the process.
    /// (Looked up at every scan, so without dynamic exclusivity checks, as `stopNumbers`.)
    @exclusivity(unchecked) var runningRuns: [(date: Int, realtime: Bool, runs: RunningRuns)] = []
    /// True for a run as realtime data predicts it (`PlannerRealtime`): its rides say so.
    var isRealtime = false

    var runCount: Int { trips.count }

    @inline(__always) func canBoard(at position: Int) -> Bool { permissions[position] & TripPattern.boarding != 0 }
    @inline(__always) func canAlight(at position: Int) -> Bool { permissions[position] & TripPattern.alighting != 0 }

    @inline(__always) func arrival(run: Int, at position: Int) -> Int {
        Int(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: arrivalsOffset + (position * trips.count + run) * 4, as: Int32.self)))
    }

    @inline(__always) func departure(run: Int, at position: Int) -> Int {
        Int(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: departuresOffset + (position * trips.count + run) * 4, as: Int32.self)))
    }

    /// The stored form of a pattern with these stops, permissions and runs (`arrivals` and
    /// `departures` stop-major).
    static func packed(stops: [Int], permissions: [UInt8], trips: [Int], services: [Int], arrivals: [Int32], departures: [Int32]) -> [UInt8] {
        var writer = PackedWriter()
        writer.append(UInt32(stops.count))
        writer.append(UInt32(trips.count))
        for stop in stops { writer.append(Int64(stop)) }
        for permission in permissions { writer.append(permission) }
        for trip in trips { writer.append(Int64(trip)) }
        for service in services { writer.append(Int64(service)) }
        for time in arrivals { writer.append(time) }
        for time in departures { writer.append(time) }
        return writer.bytes
    }

    /// Run `run` of this pattern alone: a pattern of that one run, its stops numbered like this
    /// one's.
    func singleRun(_ run: Int) throws -> TripPattern {
        try singleRun(run, permissions: permissions, arrivals: times(ofRun: run).arrivals, departures: times(ofRun: run).departures)
    }

    /// Run `run`'s arrivals and departures, one per stop.
    func times(ofRun run: Int) -> (arrivals: [Int32], departures: [Int32]) {
        (stops.indices.map { Int32(arrival(run: run, at: $0)) }, stops.indices.map { Int32(departure(run: run, at: $0)) })
    }

    /// The stops, permissions, trip and service of run `run` of this pattern with `arrivals` and
    /// `departures` (one per stop) and `permissions` in place of the stored ones: a pattern of
    /// that one run, numbered like this one's stops.
    func singleRun(_ run: Int, permissions: [UInt8], arrivals: [Int32], departures: [Int32]) throws -> TripPattern {
        let bytes = TripPattern.packed(stops: stops, permissions: permissions, trips: [trips[run]], services: [services[run]],
                                       arrivals: arrivals, departures: departures)
        let pattern = try bytes.withUnsafeBytes { try TripPattern(packed: $0) }
        pattern.stopNumbers = stopNumbers
        return pattern
    }

    /// The pattern stored as `stored` (copied).
    init(packed stored: UnsafeRawBufferPointer) throws {
        var reader = PackedReader(stored)
        let stopCount = Int(try reader.uint32())
        let runCount = Int(try reader.uint32())
        guard reader.hasBytes(stopCount * 9 + runCount * 16 + stopCount * runCount * 8) else { throw PackedReader.Truncated() }
        stops = try reader.ints(stopCount)
        permissions = try reader.bytes(stopCount)
        trips = try reader.ints(runCount)
        services = try reader.ints(runCount)
        arrivalsOffset = reader.offset
        departuresOffset = reader.offset + stopCount * runCount * 4
        byteCount = stored.count
        bytes = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 8)
        if let base = stored.baseAddress { bytes.copyMemory(from: base, byteCount: byteCount) }
        // The earliest and latest times a search can use (runs are sorted at every stop, and
        // times do not decrease along a run).
        var earliest = Int.max, latest = Int.min
        for position in 0..<stopCount where runCount > 0 {
            if permissions[position] & TripPattern.boarding != 0 {
                earliest = min(earliest, Int(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: departuresOffset + position * runCount * 4, as: Int32.self))))
            }
            if permissions[position] & TripPattern.alighting != 0 {
                latest = max(latest, Int(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: arrivalsOffset + (position * runCount + runCount - 1) * 4, as: Int32.self))))
            }
        }
        earliestTime = earliest
        latestTime = latest
    }

    /// The earliest departure any run has where boarding is allowed, and the latest arrival where
    /// alighting is (GTFS seconds): a service day whose runs are all before a search's start, or
    /// after its bound, is not scanned.
    let earliestTime: Int
    let latestTime: Int

    /// Run `run`'s earliest departure where boarding is allowed and latest arrival where
    /// alighting is (GTFS seconds; Int.max and Int.min when there are none).
    func timeSpan(ofRun run: Int) -> (earliest: Int, latest: Int) {
        var earliest = Int.max, latest = Int.min
        for position in permissions.indices {
            if canBoard(at: position) { earliest = min(earliest, departure(run: run, at: position)) }
            if canAlight(at: position) { latest = max(latest, arrival(run: run, at: position)) }
        }
        return (earliest, latest)
    }

    deinit { bytes.deallocate() }
}

/// The runs of a pattern a search may ride on one service date: the stored runs whose service
/// runs that day, less those realtime data may change (`candidates`: their trip has a trip
/// update for the day), which are ridden one by one as realtime data predicts them.
struct RunningRuns {
    /// Per stored run, whether it runs as the timetable has it.
    let mask: [Bool]
    /// True when some stored run runs as the timetable has it.
    let any: Bool
    /// Runs that run that day and that realtime data may change.
    let candidates: [Int]

    init(mask: [Bool], candidates: [Int] = []) {
        self.mask = mask
        any = mask.contains(true)
        self.candidates = candidates
    }

    /// The mask of a pattern of one run that runs.
    static let single = [true]
}
