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
/// Stored as one BLOB (`PackedPattern`: compact, each time as its difference from the one the
/// runs before predict). A read pattern keeps what a search reads while it scans, the stops as
/// the timetable numbers them, the permissions and the times, in one allocation of its own
/// (`ScannedPattern`): a question scans a few thousand patterns, and each further object or
/// array a scan touched was a further wait on memory.
final class TripPattern: @unchecked Sendable {
    /// May board at this stop.
    static let boarding: UInt8 = 1
    /// May alight at this stop.
    static let alighting: UInt8 = 2

    /// The stops in order (database keys).
    let stops: [Int]
    /// Per stop, `boarding` | `alighting`.
    let permissions: [UInt8]
    /// Per run, its trip's key (a frequency-based trip's runs share it).
    let trips: [Int]
    /// Per run, its trip's service key.
    let services: [Int]
    /// What a search reads while it scans this pattern (owned: freed with the pattern).
    let scanned: ScannedPattern
    /// True for a run as realtime data predicts it (`PlannerRealtime`): its rides say so.
    var isRealtime = false

    var runCount: Int { trips.count }

    /// The stops as the timetable numbers them (nil: a stop it does not know), set when it reads
    /// the pattern; kept in the scan form (−1 for nil).
    var stopNumbers: [StopNumber?] {
        get { (0..<stops.count).map { scanned.stopNumbers[$0] < 0 ? nil : StopNumber(rawValue: scanned.stopNumbers[$0]) } }
        set {
            precondition(newValue.count == stops.count, "one number per stop")
            for (position, number) in newValue.enumerated() { scanned.stopNumbers[position] = number?.rawValue ?? -1 }
        }
    }

    @inline(__always) func canBoard(at position: Int) -> Bool { scanned.canBoard(at: position) }
    @inline(__always) func canAlight(at position: Int) -> Bool { scanned.canAlight(at: position) }
    @inline(__always) func arrival(run: Int, at position: Int) -> Int { scanned.arrival(run: run, at: position) }
    @inline(__always) func departure(run: Int, at position: Int) -> Int { scanned.departure(run: run, at: position) }

    /// The stored form of a pattern with these stops, permissions and runs (`arrivals` and
    /// `departures` stop-major).
    static func packed(stops: [Int], permissions: [UInt8], trips: [Int], services: [Int], arrivals: [Int32], departures: [Int32]) -> [UInt8] {
        PackedPattern.bytes(stops: stops, permissions: permissions, trips: trips, services: services, arrivals: arrivals, departures: departures)
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

    /// The pattern stored as `stored` (copied), in either of `PackedPattern`'s forms; its scan
    /// form in `arena` when given one (kept alive by the pattern), else in memory of its own.
    init(packed stored: UnsafeRawBufferPointer, arena: PatternArena? = nil) throws {
        let decoded = try PackedPattern.decode(stored, arena: arena)
        (stops, permissions, trips, services, scanned) = (decoded.stops, decoded.permissions, decoded.trips, decoded.services, decoded.scanned)
        self.arena = arena
    }

    /// The arena holding the scan form, if any: freed with the last pattern using it.
    private let arena: PatternArena?

    /// The earliest departure any run has where boarding is allowed, and the latest arrival where
    /// alighting is (GTFS seconds): a service day whose runs are all before a search's start, or
    /// after its bound, is not scanned.
    var earliestTime: Int { scanned.earliestTime }
    var latestTime: Int { scanned.latestTime }

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

    deinit { if arena == nil { scanned.deallocate() } }
}
