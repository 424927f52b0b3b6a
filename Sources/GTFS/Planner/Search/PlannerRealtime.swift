import FetchRequest

/// One feed's stored GTFS-Realtime data as the journey planner applies it: the runs that trip
/// updates change, each as a pattern of its own with the predicted times.
///
/// `transit realtime` stores each matched trip update as the stop times it changes
/// (`realtime_stop_times`: a delay, or skipped), by the rules `RealtimeApplier` states. The planner
/// reads, once per process, which trips have an update on which service date; such a trip's runs
/// that day are left out of their patterns and ridden one by one, each as a pattern of one run.
/// Only when a search reaches such a run, at a time it could use it, are its changed stop times
/// read (one request per run: an index search per call on `realtime_stop_times(stop, scheduled,
/// …)`, the calls' stored moments being known from the pattern). As predicted:
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
    /// The change of trip `$trip`'s call at stop `$stop` stored between the moments `$from` and
    /// `$to` (its arrival and departure), read by position in the order selected here: one
    /// search of the primary key `realtime_stop_times(stop, scheduled, trip, …)`, which holds
    /// every column asked for. Run once per call of each run read (thousands of times), it is
    /// reported to `--explain` as one statement (`changeReadReport`), not run by run.
    private lazy var changeRequest: PreparedRequest = {
        var fetch = TransitModel.fetch("realtime_stop_times", feedKey: feedKey)
        for name in ["scheduled", "delay", "skipped"] { fetch.select(fetch.required(name), as: name) }
        fetch.filter(fetch.key(of: "stop") == SQLExpression.variable("stop"))
        fetch.filter(fetch.required("scheduled").between(.variable("from"), and: .variable("to")))
        fetch.filter(fetch.key(of: "trip") == SQLExpression.variable("trip"))
        return SQLGenerator.prepare(fetch.requiredQuery())
    }()
    private lazy var changeStatement = Result { try database.makeStatement(changeRequest.sql) }
    /// How many runs' changes were read, and in how long (for `--explain`); the calls looked up,
    /// the rows read and the last values bound.
    private(set) var runsRead = 0
    private(set) var readSeconds = 0.0
    private var lookups = 0
    private var lastValues: [SQLValue] = []

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

    /// Run `run` of `pattern` on the service day starting at `base` (noon − 12 h) as realtime
    /// data predicts it: `.unchanged` when nothing is stored for it (the timetable stands), else
    /// a pattern of that run alone, or `.cancelled` when no rider can use it.
    func prediction(of pattern: TripPattern, run: Int, base: Int) throws -> Prediction {
        let started = monotonicSeconds()
        defer { readSeconds += monotonicSeconds() - started }
        let stopCount = pattern.stops.count
        var (arrivals, departures) = pattern.times(ofRun: run)
        var permissions = pattern.permissions
        var changed = false
        let trip = SQLValue.integer(Int64(pattern.trips[run]))
        let (scheduled, delay, skipped) = (0, 1, 2)
        for position in 0..<stopCount {
            // A change is stored at its call's departure, or its arrival when it has none (a
            // pattern stores 0 for a time a call lacks). Runs of a frequencies.txt trip share
            // its key: the stop and the moment tell this run's calls from the others'.
            var moments: [Int] = []
            if pattern.canBoard(at: position) || departures[position] != 0 { moments.append(base + Int(departures[position])) }
            if pattern.canAlight(at: position) || arrivals[position] != 0 { moments.append(base + Int(arrivals[position])) }
            guard let from = moments.min(), let to = moments.max() else { continue }
            var change: (delay: Int?, skipped: Bool)?
            let values: [SQLValue] = [.integer(Int64(pattern.stops[position])), .integer(Int64(from)), .integer(Int64(to)), trip]
            let statement = try changeStatement.get()
            statement.reset()
            try statement.bind(try changeRequest.binding(values).arguments)
            lookups += 1
            lastValues = values
            while try statement.step() {
                let row = statement.row
                guard moments.contains(row.int(scheduled)) else { continue }
                change = (row.optionalInt(delay), row.int(skipped) != 0)
                break
            }
            guard let change else { continue }
            changed = true
            if change.skipped { permissions[position] = 0 }
            if let delay = change.delay.map(Int32.init(clamping:)) {
                arrivals[position] &+= delay
                departures[position] &+= delay
            }
        }
        runsRead += 1
        guard changed else { return .unchanged }
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

    /// The lookups of runs' changes so far as `--explain` reports a statement: the request
    /// (bound to the last values), its plan, the number of lookups and their seconds in all; nil
    /// when none was made.
    func changeReadReport() throws -> ExecutedRequest? {
        guard lookups > 0 else { return nil }
        let request = try changeRequest.binding(lastValues)
        return ExecutedRequest(request: request, plan: try database.queryPlan(request), rowCount: lookups, seconds: readSeconds)
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
