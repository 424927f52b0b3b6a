import FetchRequest

/// The departure rules applied to each trip update as it is stored, so a departures query reads
/// one precomputed row per changed stop time (`realtime_stop_times`) instead of replaying updates.
///
/// - Rule 2: a StopTimeUpdate matches the stop time with its `stop_sequence`; without one, by
///   `stop_id`: the first stop time at that stop after the previously matched one.
/// - Rule 3: an updated stop's delay comes from its departure event if that has a `time` or a
///   `delay`, else from its arrival event; `time` wins over `delay`, and gives delay = time − the
///   scheduled departure (arrival, for an arrival event) on the run's service date.
/// - Rule 4: a stop without its own update takes the delay of the nearest updated stop before it;
///   stops before the first update take `TripUpdate.delay` when set, else the timetable.
/// - Rule 5: SKIPPED: no departure from that stop, and the delay propagates past it unchanged;
///   NO_DATA: that stop and the ones after it, until the next update, show the timetable.
/// - Rule 6: CANCELED or DELETED: no departure from any stop of the run; NEW (or ADDED) trips:
///   departures at their updated stops but the last, at the times given (`add`).
struct RealtimeApplier {
    let database: Database
    let feed: Feed
    /// The lookups, prepared once by the store.
    private let lookups: RealtimeLookups
    /// The stop keys found so far by stop_id (nil: no stop of the feed): the updates of a
    /// message name the same stops again and again (a matched trip's twice: stored, then matched
    /// by rule 2).
    private var stopKeys: [String: Int?] = [:]
    private let rowInsert: RowWriter
    private let addedInsert: RowWriter
    /// The largest and smallest delay written (0 when none): the widening departures need.
    private(set) var latestDelay = 0
    private(set) var earliestDelay = 0
    /// How many departures NEW trips added.
    private(set) var addedDepartures = 0
    /// The changed stop times, written by `flush` in the table's key order (inserts in key order
    /// fill B-tree pages one after another instead of splitting them at random).
    private var changed: [ChangedStopTime] = []

    /// A row of `realtime_stop_times`, with the order it was made in (the first of two updates of
    /// the same stop time wins).
    private struct ChangedStopTime {
        let stop: Int, scheduled: Int, trip: Int, sequence: Int, date: Int, runStart: Int?, delay: Int?, skipped: Bool, order: Int
    }

    init(database: Database, feed: Feed, lookups: RealtimeLookups) throws {
        self.database = database
        self.feed = feed
        self.lookups = lookups
        rowInsert = try RowWriter(database, inserting: RealtimeSchema.stopTimes, columns: RealtimeSchema.stopTimes.columnNames, orIgnore: true)
        addedInsert = try RowWriter(database, inserting: RealtimeSchema.addedDepartures, columns: RealtimeSchema.addedDepartures.columnNames)
    }

    /// The key of stop `stopID` of the feed (nil when it has none), looked up once per stop_id.
    mutating func stop(_ stopID: String?) throws -> Int? {
        guard let stopID else { return nil }
        if let known = stopKeys[stopID] { return known }
        var found: Int?
        try database.forEachRow(try lookups.stop.request.substituting(["stop_id": stopID])) { found = $0.int(lookups.stop.position) }
        stopKeys[stopID] = found
        return found
    }

    /// Rules 2-6 for a trip update matched to the run of `trip` on `date` (for a trip run by
    /// `frequencies.txt`, the run starting at `runStart`, GTFS seconds).
    mutating func apply(_ update: RealtimeDataset.TripUpdate, trip: Int, on date: ServiceDate, runStart: Int? = nil,
                        into summary: inout RealtimeSummary) throws {
        var times: [(sequence: Int, stop: Int, arrival: Int?, departure: Int?)] = []
        let position = lookups.stopTimesOfTrip.position
        try database.forEachRow(try lookups.stopTimesOfTrip.request.substituting(["trip": trip])) {
            times.append(($0.int(position.sequence), $0.int(position.stop), $0.optionalInt(position.arrival), $0.optionalInt(position.departure)))
        }
        // A frequency run keeps the template's spacing, shifted to start at `runStart`.
        if let runStart, let first = times.lazy.compactMap({ $0.departure ?? $0.arrival }).first {
            let shift = runStart - first
            times = times.map { ($0.sequence, $0.stop, $0.arrival.map { $0 + shift }, $0.departure.map { $0 + shift }) }
        }
        let base = feed.timeZone.noonMinusTwelveHours(date)
        func write(_ index: Int, delay: Int?, skipped: Bool) throws {
            // A stop time with no time at all has nothing to move (and no departure to list).
            let time = times[index]
            guard let scheduled = time.departure ?? time.arrival else { return }
            changed.append(ChangedStopTime(stop: time.stop, scheduled: base + scheduled, trip: trip, sequence: time.sequence, date: date.yyyymmdd,
                                           runStart: runStart, delay: delay, skipped: skipped, order: changed.count))
            if let delay {
                latestDelay = max(latestDelay, delay)
                earliestDelay = min(earliestDelay, delay)
            }
        }
        let relationship = update.trip.relationship
        if relationship == 3 || relationship == 7 {
            for index in times.indices { try write(index, delay: nil, skipped: true) }
            return
        }
        let updates = try matchedStopTimeUpdates(update, times: times, into: &summary)
        // Rules 3-5, stop by stop.
        var current = update.delay
        for (index, time) in times.enumerated() {
            var skipped = false
            if let stopTime = updates[index] {
                switch stopTime.relationship {
                case 1: skipped = true
                case 2: current = nil
                default:
                    if let delay = RealtimeApplier.delay(of: stopTime, arrival: time.arrival, departure: time.departure, base: base) {
                        current = delay
                    }
                }
            }
            if skipped || current != nil { try write(index, delay: current, skipped: skipped) }
        }
    }

    /// Rule 2: the stop time updates of `update` by the index of the stop time (of `times`) each
    /// matches; those matching none are counted.
    private mutating func matchedStopTimeUpdates(_ update: RealtimeDataset.TripUpdate, times: [(sequence: Int, stop: Int, arrival: Int?, departure: Int?)],
                                                 into summary: inout RealtimeSummary) throws -> [Int: RealtimeDataset.StopTimeUpdate] {
        var updates: [Int: RealtimeDataset.StopTimeUpdate] = [:]
        var previous = -1
        for stopTime in update.stopTimeUpdates {
            var index: Int?
            if let sequence = stopTime.stopSequence {
                index = times.firstIndex { $0.sequence == sequence }
            } else if let stop = try stop(stopTime.stopID), previous + 1 < times.count {
                index = times[(previous + 1)...].firstIndex { $0.stop == stop }
            }
            guard let index else {
                summary.stopTimeUpdatesUnmatched += 1
                continue
            }
            previous = index
            updates[index] = stopTime
        }
        return updates
    }

    /// Writes the changed stop times of every update applied, in key order; the first of two
    /// rows for one stop time stays.
    mutating func flush() throws {
        changed.sort { ($0.stop, $0.scheduled, $0.trip, $0.sequence, $0.order) < ($1.stop, $1.scheduled, $1.trip, $1.sequence, $1.order) }
        let slots = ["stop", "scheduled", "trip", "stop_sequence", "service_date", "run_start", "delay", "skipped"].map(rowInsert.slot)
        for change in changed {
            try rowInsert.write { row in
                row[slots[0]] = .integer(Int64(change.stop))
                row[slots[1]] = .integer(Int64(change.scheduled))
                row[slots[2]] = .integer(Int64(change.trip))
                row[slots[3]] = .integer(Int64(change.sequence))
                row[slots[4]] = .integer(Int64(change.date))
                row[slots[5]] = change.runStart.sqlValue
                row[slots[6]] = change.delay.sqlValue
                row[slots[7]] = .integer(change.skipped ? 1 : 0)
            }
        }
        changed = []
    }

    /// Rule 3: the delay an update gives its stop, or nil when it gives none that can be computed.
    static func delay(of update: RealtimeDataset.StopTimeUpdate, arrival: Int?, departure: Int?, base: Int) -> Int? {
        for (event, scheduled) in [(update.departure, departure ?? arrival), (update.arrival, arrival ?? departure)] {
            guard let event, event.time != nil || event.delay != nil else { continue }
            if let time = event.time {
                guard let scheduled else { return event.delay }
                return time - (base + scheduled)
            }
            return event.delay
        }
        return nil
    }

    /// Rule 6 for a NEW (or ADDED) trip: its departures at the updated stops but the last, at the
    /// times given; the service date is `start_date`, else the local date of its first time.
    mutating func add(_ update: RealtimeDataset.TripUpdate, tripUpdate: Int, startDate: ServiceDate?, keys: () -> Int) throws -> ServiceDate? {
        let timed = update.stopTimeUpdates.compactMap { stopTime -> (RealtimeDataset.StopTimeUpdate, Int)? in
            guard let time = stopTime.departure?.time ?? stopTime.arrival?.time else { return nil }
            return (stopTime, time)
        }
        guard let first = timed.first else { return startDate }
        let date = startDate ?? feed.timeZone.localTime(of: first.1).date
        var route: Int?
        if let routeID = update.trip.routeID {
            try database.forEachRow(try lookups.route.request.substituting(["route_id": routeID])) { route = $0.int(lookups.route.position) }
        }
        var headsign: String?
        if let last = try stop(update.stopTimeUpdates.last?.stopID) {
            try database.forEachRow(try lookups.stopName.request.substituting(["id": last])) { headsign = $0.optionalString(lookups.stopName.position) }
        }
        for (stopTime, time) in timed.dropLast() where stopTime.relationship != 1 {
            guard let stop = try stop(stopTime.stopID) else { continue }
            let key = keys()
            try addedInsert.write { row in
                row["id"] = .integer(Int64(key))
                row["feed"] = .integer(Int64(feed.key))
                row["trip_update"] = .integer(Int64(tripUpdate))
                row["stop"] = .integer(Int64(stop))
                row["instant"] = .integer(Int64(time))
                row["service_date"] = .integer(Int64(date.yyyymmdd))
                row["trip_id"] = update.trip.tripID.sqlValue
                row["route"] = route.sqlValue
                row["route_id"] = update.trip.routeID.sqlValue
                row["headsign"] = headsign.sqlValue
            }
            addedDepartures += 1
        }
        return date
    }
}
