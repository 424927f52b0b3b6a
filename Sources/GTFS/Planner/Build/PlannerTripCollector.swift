/// Each trip's calls, grouped by pattern, as the journey planner's timetable needs them: gathered
/// while the importer loads stop_times.txt, so that `PlannerTimetableBuilder` need not read the
/// feed's millions of stop times back out of the database (that read was most of the builder's
/// time: 1.3 s of 1.5 s on the large feed).
///
/// A trip is taken as it streams by when its rows are one contiguous run of the file and every call
/// has a time. Any other trip is *deferred*: one whose rows are split across the file (its later
/// rows may even be duplicates the database ignores), or one with a call the import's
/// interpolation will time. The builder reads the deferred trips back from the database once the
/// import has finished with them (`readBackMode()`), through the same `add` calls, so every trip
/// ends up exactly as the database holds it.
///
/// A taken trip's times go to a scratch file (`PlannerTripSpool`), not to memory: what stays is
/// 8 bytes a trip (its pattern, where its times are) and the patterns' stops, so a national feed
/// imports in the memory of a city's.
final class PlannerTripCollector {
    /// The calls of one stop pattern (stops and permissions).
    struct Pattern {
        /// Each call as stop key × 4 + permissions (`TripPattern.boarding`, `TripPattern.alighting`).
        let calls: [Int]

        /// How many values a trip of the pattern has in the spool: its first time (2 values), then
        /// call by call the arrival and the departure.
        var recordLength: Int { 2 + 2 * calls.count }
    }

    /// The trips of each pattern, by trip slot (key − feed base − 1) ascending.
    struct Members {
        /// Pattern p's trips are `slots[starts[p]..<starts[p + 1]]`.
        fileprivate let starts: [Int]
        fileprivate let slots: [Int32]

        subscript(pattern: Int) -> ArraySlice<Int32> { slots[starts[pattern]..<starts[pattern + 1]] }
    }

    /// One call of the trip being gathered.
    private struct Call {
        let sequence: Int
        let stop: Int
        let arrival: Int?
        let departure: Int?
        let pickup: Int?
        let dropOff: Int?
    }

    /// Where each trip stands, by trip key − feed base − 1: a pattern's number (≥ 0) or one of these.
    private enum TripState {
        static let unseen: Int32 = -1
        static let deferred: Int32 = -2
        /// Seen, and carrying no one (fewer than two calls, nowhere to board or to alight).
        static let unused: Int32 = -3
        static let awaitingReadBack: Int32 = -4
    }

    /// The patterns, in the order their first trip came.
    private(set) var patterns: [Pattern] = []
    private var patternNumbers: [[Int]: Int] = [:]
    private var states: [Int32]
    /// Where each taken trip's record starts in the spool, in pairs of values, by slot (32 bits: a
    /// spool of up to 8 G values, 4 billion stop times).
    private var recordStarts: [UInt32]
    private let spool: PlannerTripSpool
    /// The record of the trip being taken, reused.
    private var record: [Int32] = []
    private let firstTripKey: Int
    private var readingBack = false

    private var currentTrip = 0
    private var ignoringCurrent = false
    private var calls: [Call] = []

    /// A collector for the trips of feed `feedKey`, whose keys are its base + 1 … base + `tripCount`,
    /// with its scratch file in `scratchDirectory` (the database's folder).
    init(feedKey: Int, tripCount: Int, scratchDirectory: String) throws {
        firstTripKey = FeedKeys.base(of: feedKey) + 1
        states = [Int32](repeating: TripState.unseen, count: tripCount)
        recordStarts = [UInt32](repeating: 0, count: tripCount)
        spool = try PlannerTripSpool(directory: scratchDirectory)
    }

    /// How many trip slots the feed has.
    var tripCount: Int { states.count }

    /// Takes one stop time (as the database stores it: `arrival` and `departure` each filled from
    /// the other where one is empty). Rows of one trip must come together to be taken as they come.
    func add(trip: Int, sequence: Int, stop: Int, arrival: Int?, departure: Int?, pickup: Int?, dropOff: Int?) {
        if trip != currentTrip { start(trip) }
        if !ignoringCurrent {
            calls.append(Call(sequence: sequence, stop: stop, arrival: arrival, departure: departure, pickup: pickup, dropOff: dropOff))
        }
    }

    /// Ends the trip being gathered: call after the last `add`.
    func finish() {
        finishTrip()
        currentTrip = 0
    }

    /// Switches to reading the deferred trips back (in key order, times interpolated) and returns
    /// their keys, ascending; rows of any other trip are ignored from now on.
    func readBackMode() -> [Int] {
        finish()
        readingBack = true
        var keys: [Int] = []
        for slot in states.indices where states[slot] == TripState.deferred {
            states[slot] = TripState.awaitingReadBack
            keys.append(firstTripKey + slot)
        }
        return keys
    }

    /// Marks every trip as waiting to be read back: for a timetable built from the database alone.
    func readEverythingBack() {
        for slot in states.indices { states[slot] = TripState.awaitingReadBack }
        readingBack = true
    }

    private func start(_ trip: Int) {
        finishTrip()
        currentTrip = trip
        calls.removeAll(keepingCapacity: true)
        let slot = trip - firstTripKey
        guard states.indices.contains(slot) else {
            ignoringCurrent = true
            return
        }
        let state = states[slot]
        if readingBack {
            ignoringCurrent = state != TripState.awaitingReadBack
        } else if state == TripState.unseen {
            ignoringCurrent = false
        } else {
            // The trip's rows are split across the file: read it back whole (a record it had in
            // the spool is left there, unused).
            states[slot] = TripState.deferred
            ignoringCurrent = true
        }
    }

    private func finishTrip() {
        guard currentTrip != 0, !ignoringCurrent else { return }
        let slot = currentTrip - firstTripKey
        if !readingBack, calls.contains(where: { $0.arrival == nil || $0.departure == nil }) {
            states[slot] = TripState.deferred
            return
        }
        if zip(calls, calls.dropFirst()).contains(where: { $0.sequence > $1.sequence }) {
            calls.sort { $0.sequence < $1.sequence }
        }
        var key: [Int] = []
        key.reserveCapacity(calls.count)
        var canBoard = false, canAlight = false
        for call in calls {
            var permissions = 0
            if call.departure != nil, call.pickup != 1 { permissions |= Int(TripPattern.boarding) }
            if call.arrival != nil, call.dropOff != 1 { permissions |= Int(TripPattern.alighting) }
            canBoard = canBoard || permissions & Int(TripPattern.boarding) != 0
            canAlight = canAlight || permissions & Int(TripPattern.alighting) != 0
            key.append(call.stop * 4 + permissions)
        }
        // A trip where nobody can board, or nobody can alight, carries no one.
        guard calls.count >= 2, canBoard, canAlight,
              let first = calls.lazy.compactMap({ $0.departure ?? $0.arrival }).first else {
            states[slot] = TripState.unused
            return
        }
        let number: Int
        if let known = patternNumbers[key] {
            number = known
        } else {
            number = patterns.count
            patternNumbers[key] = number
            patterns.append(Pattern(calls: key))
        }
        states[slot] = Int32(number)
        recordStarts[slot] = UInt32(spool.count / 2)
        record.removeAll(keepingCapacity: true)
        record.append(Int32(truncatingIfNeeded: first))
        record.append(Int32(truncatingIfNeeded: first >> 32))
        for call in calls {
            record.append(Int32(clamping: call.arrival ?? 0))
            record.append(Int32(clamping: call.departure ?? 0))
        }
        spool.append(record)
    }

    /// The trips taken, by pattern: read once every trip is in (after `finish()`).
    func members() -> Members {
        var starts = [Int](repeating: 0, count: patterns.count + 1)
        for state in states where state >= 0 { starts[Int(state) + 1] += 1 }
        for pattern in patterns.indices { starts[pattern + 1] += starts[pattern] }
        var next = starts
        var slots = [Int32](repeating: 0, count: starts[patterns.count])
        for (slot, state) in states.enumerated() where state >= 0 {
            slots[next[Int(state)]] = Int32(slot)
            next[Int(state)] += 1
        }
        return Members(starts: starts, slots: slots)
    }

    /// The records of `slots`, trips of `pattern`, one after the other in the order given: for
    /// each its first time (GTFS seconds, 2 values: low then high half), then call by call the
    /// arrival and the departure (0 where none). Trips whose records follow each other in the
    /// spool are read in one `pread`.
    func records(of slots: ArraySlice<Int32>, in pattern: Int) throws -> [Int32] {
        let length = patterns[pattern].recordLength
        var values = [Int32](repeating: 0, count: slots.count * length)
        let positions = slots.map { Int(recordStarts[Int($0)]) * 2 }
        try values.withUnsafeMutableBufferPointer { values in
            var start = 0
            while start < positions.count {
                var end = start + 1
                while end < positions.count, positions[end] == positions[end - 1] + length { end += 1 }
                try spool.read(from: positions[start], into: UnsafeMutableBufferPointer(rebasing: values[start * length..<end * length]))
                start = end
            }
        }
        return values
    }
}
