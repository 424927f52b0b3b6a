import FetchRequest

/// One feed's stored GTFS-Realtime data as the journey planner applies it: the runs that trip
/// updates change, each as a pattern of its own with the predicted times.
///
/// `transit realtime` stores each matched trip update as the stop times it changes
/// (`realtime_stop_times`: a delay, or skipped), by the rules `RealtimeApplier` states. The planner
/// reads, once per process, which trips have an update on which service date, and then, only for
/// the runs of the patterns a search reaches whose trip is among them, that run's changed stop
/// times (one request per run, on the table's primary key). A changed run is left out of its
/// pattern that day and ridden instead as a pattern of one run:
/// - a delayed call's arrival and departure both move by its delay;
/// - a skipped call can be neither boarded nor left (a cancelled run skips every call, so it is
///   not ridden at all);
/// - calls realtime says nothing of keep the timetable's times;
/// - times never go back along the run: over the calls that can still be used, in order, each
///   arrival and departure is at least the last usable time before it (predictions that
///   disagree, a late stop then an early one, would otherwise have the run go back in time).
///
/// The departures of NEW (or ADDED) trips are not ridden: the message gives their departures,
/// not where a rider could leave them.
final class PlannerRealtime {
    let database: Database
    let feedKey: Int
    /// The range of the stored delays (seconds): a service day of a pattern is searched when its
    /// runs, moved by any of them, could reach the search.
    let earliestDelay: Int
    let latestDelay: Int
    /// The trips with a matched trip update, by service date (yyyymmdd); read on first use.
    private var updatedTrips: [Int: Set<Int>]?
    /// The changed stop times of one run, by the number of stops of its pattern.
    private var changeRequests: [Int: PreparedRequest] = [:]
    /// How many runs' changes were read (for `--explain`).
    private(set) var runsRead = 0

    init(database: Database, feedKey: Int, window: RealtimeWindow) {
        self.database = database
        self.feedKey = feedKey
        earliestDelay = min(window.earliestDelay, 0)
        latestDelay = max(window.latestDelay, 0)
    }

    /// The trips of the feed with a matched trip update for `date`.
    ///
    ///     SELECT "realtime_trip_updates"."trip", "realtime_trip_updates"."service_date"
    ///       FROM "realtime_trip_updates" WHERE "realtime_trip_updates"."feed" = ? AND … IS NOT NULL
    func updatedTrips(on date: ServiceDate) throws -> Set<Int> {
        if let known = updatedTrips { return known[date.yyyymmdd] ?? [] }
        var fetch = TransitModel.fetch("realtime_trip_updates", feedKey: feedKey)
        let trip = fetch.key(of: "trip")
        fetch.select(trip, as: "trip")
        fetch.select(fetch.required("service_date"), as: "service_date")
        fetch.filter(trip.isNotNull)
        var found: [Int: Set<Int>] = [:]
        try database.forEachRow(SQLGenerator.prepare(fetch.requiredQuery())) { row in
            guard let date = row.optionalInt("service_date") else { return }
            found[date, default: []].insert(row.int("trip"))
        }
        updatedTrips = found
        return found[date.yyyymmdd] ?? []
    }

    /// The changed stop times of the run of trip `$trip` calling at `$stop0`… between the moments
    /// `$from` and `$to`: one index range per stop on `realtime_stop_times(stop, scheduled, trip, …)`.
    private func changeRequest(stopCount: Int) -> PreparedRequest {
        if let known = changeRequests[stopCount] { return known }
        var fetch = TransitModel.fetch("realtime_stop_times", feedKey: feedKey)
        let stop = fetch.key(of: "stop")
        fetch.select(stop, as: "stop")
        for name in ["scheduled", "delay", "skipped"] { fetch.select(fetch.required(name), as: name) }
        fetch.filter(stop.isIn(variablesNamed: "stop", count: stopCount))
        fetch.filter(fetch.required("scheduled").between(.variable("from"), and: .variable("to")))
        fetch.filter(fetch.key(of: "trip") == SQLExpression.variable("trip"))
        let request = SQLGenerator.prepare(fetch.requiredQuery())
        changeRequests[stopCount] = request
        return request
    }

    /// Run `run` of `pattern` on the service day starting at `base` (noon − 12 h) as realtime
    /// data predicts it: nil when nothing is stored for it (the timetable stands), else a pattern
    /// of that run alone, or `.cancelled` when no call can be used.
    func prediction(of pattern: TripPattern, run: Int, base: Int) throws -> Prediction {
        let stopCount = pattern.stops.count
        var arrivals = (0..<stopCount).map { Int32(pattern.arrival(run: run, at: $0)) }
        var departures = (0..<stopCount).map { Int32(pattern.departure(run: run, at: $0)) }
        // A call's stored moment is its departure, or its arrival when it has none (a pattern
        // stores 0 for a time a call lacks): the run's moments lie between its smallest and
        // largest times.
        var times: [Int32] = []
        for position in 0..<stopCount {
            if pattern.canBoard(at: position) || departures[position] != 0 { times.append(departures[position]) }
            if pattern.canAlight(at: position) || arrivals[position] != 0 { times.append(arrivals[position]) }
        }
        guard let first = times.min(), let last = times.max() else { return .unchanged }
        var values: [String: any SQLValueConvertible] = ["from": base + Int(first), "to": base + Int(last), "trip": pattern.trips[run]]
        for (index, stop) in pattern.stops.enumerated() { values["stop\(index)"] = stop }
        var changes: [(stop: Int, scheduled: Int, delay: Int?, skipped: Bool)] = []
        try database.forEachRow(try changeRequest(stopCount: stopCount).substituting(values)) { row in
            changes.append((row.int("stop"), row.int("scheduled"), row.optionalInt("delay"), row.int("skipped") != 0))
        }
        runsRead += 1
        guard !changes.isEmpty else { return .unchanged }

        // Runs of a frequencies.txt trip share its key and overlap in time: a change belongs to
        // this run only where its stop and moment are one of this run's calls.
        var permissions = pattern.permissions
        var matched = [Bool](repeating: false, count: stopCount)
        for change in changes {
            // The call it changes: at that stop, at that moment (first one not yet matched).
            guard let position = (0..<stopCount).first(where: { position in
                !matched[position] && pattern.stops[position] == change.stop
                    && (base + Int(departures[position]) == change.scheduled || base + Int(arrivals[position]) == change.scheduled)
            }) else { continue }
            matched[position] = true
            if change.skipped { permissions[position] = 0 }
            if let delay = change.delay.map(Int32.init(clamping:)) {
                arrivals[position] &+= delay
                departures[position] &+= delay
            }
        }
        guard matched.contains(true) else { return .unchanged }
        // Times never go back along the run: over the calls that can still be used, each usable
        // time is at least the last usable time before it.
        var previous = Int32.min
        for position in 0..<stopCount {
            if permissions[position] & TripPattern.alighting != 0 {
                arrivals[position] = max(arrivals[position], previous)
                previous = arrivals[position]
            }
            if permissions[position] & TripPattern.boarding != 0 {
                departures[position] = max(departures[position], previous)
                previous = departures[position]
            }
        }
        let boarding = permissions.firstIndex { $0 & TripPattern.boarding != 0 }
        guard let boarding, permissions[(boarding + 1)...].contains(where: { $0 & TripPattern.alighting != 0 }) else { return .cancelled }
        let predicted = try pattern.singleRun(run, permissions: permissions, arrivals: arrivals, departures: departures)
        predicted.isRealtime = true
        return .predicted(predicted)
    }

    /// What realtime data makes of one run.
    enum Prediction {
        /// Nothing stored for it: the timetable stands.
        case unchanged
        /// No rider can board and later leave it (cancelled, or every useful call skipped).
        case cancelled
        /// The run as predicted, a pattern of its own.
        case predicted(TripPattern)
    }
}
