import FetchRequest

/// Writes the journey planner's timetable of one feed (`planner_<feed>`) from its imported rows:
/// what `transit plan` and `transit reach` read instead of the stop times, so a question reads only
/// the patterns its search reaches.
///
/// Row 0 is the feed's stop index (`PlannerStopIndex`): every stop's position, parent and type,
/// and for each stop the patterns that call there. Rows 1… are the patterns (`TripPattern`), made
/// by grouping the runs of the feed's trips (each trip, or each run of a `frequencies.txt` trip)
/// by their stops and permissions, then splitting each group so that no run overtakes another.
/// Reads the stop times once in key order (trip, stop_sequence), after the import's interpolation.
struct PlannerTimetableBuilder {
    let database: Database
    let feedKey: Int

    /// What was written, for the import's report.
    struct Summary {
        var patterns = 0
        var runs = 0
        var bytes = 0
    }

    /// One run of a trip before grouping: its times at each call (nil: none).
    private struct Run {
        let trip: Int
        let service: Int
        /// Per call, GTFS seconds.
        var arrivals: [Int32]
        var departures: [Int32]
        /// The time the runs of a group are ordered by: the first time of the run.
        let firstTime: Int32
    }

    /// A pattern's identity: its stops and permissions, each call as `stop key * 4 + permissions`.
    private typealias PatternKey = [Int]

    func build() throws -> Summary {
        let base = FeedKeys.base(of: feedKey)
        let services = try tripServices()
        let periods = try frequencyPeriods()
        var groups: [PatternKey: [Run]] = [:]

        var calls: [(stop: Int, arrival: Int?, departure: Int?, pickup: Int?, dropOff: Int?)] = []
        var currentTrip: Int?
        func finishTrip() {
            guard let trip = currentTrip, calls.count >= 2, let service = services[trip - base - 1] else { return }
            var key = PatternKey()
            key.reserveCapacity(calls.count)
            var arrivals: [Int32] = []
            var departures: [Int32] = []
            for call in calls {
                var permissions: UInt8 = 0
                if call.departure != nil, call.pickup != 1 { permissions |= TripPattern.boarding }
                if call.arrival != nil, call.dropOff != 1 { permissions |= TripPattern.alighting }
                key.append(call.stop * 4 + Int(permissions))
                arrivals.append(Int32(clamping: call.arrival ?? 0))
                departures.append(Int32(clamping: call.departure ?? 0))
            }
            // A trip where nobody can both board and later alight carries no one.
            guard key.contains(where: { $0 & 1 != 0 }), key.contains(where: { $0 & 2 != 0 }) else { return }
            guard let first = calls.compactMap({ $0.departure ?? $0.arrival }).first else { return }
            if let runs = periods[trip] {
                // Runs leave at start_time, start_time + headway, … before end_time; each call is
                // reached its template offset (from the first time) after the run leaves.
                for period in runs where period.headway > 0 {
                    var start = period.start
                    while start < period.end {
                        let shift = Int32(clamping: start - first)
                        groups[key, default: []].append(Run(trip: trip, service: service,
                                                            arrivals: arrivals.map { $0 &+ shift }, departures: departures.map { $0 &+ shift },
                                                            firstTime: Int32(clamping: start)))
                        start += period.headway
                    }
                }
            } else {
                groups[key, default: []].append(Run(trip: trip, service: service, arrivals: arrivals, departures: departures,
                                                    firstTime: Int32(clamping: first)))
            }
        }

        // Read by position, in the order selected here.
        var stopTimes = TransitModel.fetch("stop_times", feedKey: feedKey, inNaturalOrder: true)
        let selected = [stopTimes.key(of: "trip"), stopTimes.key(of: "stop"), stopTimes.required("arrival_time"),
                        stopTimes.required("departure_time"), stopTimes.required("pickup_type"), stopTimes.required("drop_off_type")]
        for (index, value) in selected.enumerated() { stopTimes.select(value, as: "v\(index)") }
        let query = stopTimes.requiredQuery()
        let (trip, stop, arrival, departure, pickup, dropOff) = (0, 1, 2, 3, 4, 5)
        try database.forEachRow(SQLGenerator.prepare(query)) { row in
            let rowTrip = row.int(trip)
            if rowTrip != currentTrip {
                finishTrip()
                calls.removeAll(keepingCapacity: true)
                currentTrip = rowTrip
            }
            calls.append((row.int(stop), row.optionalInt(arrival), row.optionalInt(departure), row.optionalInt(pickup), row.optionalInt(dropOff)))
        }
        finishTrip()

        // Patterns in a fixed order (by their first run's trip), each split into runs that never
        // overtake one another.
        var patterns: [(stops: [Int], bytes: [UInt8], runs: Int)] = []
        for (key, runs) in groups.sorted(by: { ($0.value.map(\.trip).min() ?? 0) < ($1.value.map(\.trip).min() ?? 0) }) {
            patterns += split(runs.sorted { ($0.firstTime, $0.trip) < ($1.firstTime, $1.trip) }, key: key)
        }

        let table = Schema.planner(feedKey)
        let insert = try database.makeStatement(table.insertSQL(columns: table.columnNames))
        var summary = Summary()
        func write(_ id: Int, _ bytes: [UInt8]) throws {
            insert.bind(integer: Int64(id), at: 1)
            insert.bind(bytes: bytes, at: 2)
            try insert.run()
            summary.bytes += bytes.count
        }
        for (index, pattern) in patterns.enumerated() {
            try write(index + 1, pattern.bytes)
            summary.runs += pattern.runs
        }
        summary.patterns = patterns.count
        try write(0, try PlannerStopIndex.packed(database: database, feedKey: feedKey, patternStops: patterns.map(\.stops)))
        return summary
    }

    /// Splits runs of one stop pattern (sorted by first time) into groups in which each run is at
    /// or after the one before at every stop it can be boarded or left at: greedily, each run
    /// joins the first group whose last run it does not overtake.
    private func split(_ runs: [Run], key: PatternKey) -> [(stops: [Int], bytes: [UInt8], runs: Int)] {
        let used = key.indices.filter { key[$0] & 3 != 0 }
        var groups: [[Run]] = []
        for run in runs {
            let fits = groups.firstIndex { group in
                let last = group[group.count - 1]
                return used.allSatisfy { run.arrivals[$0] >= last.arrivals[$0] && run.departures[$0] >= last.departures[$0] }
            }
            if let fits { groups[fits].append(run) } else { groups.append([run]) }
        }
        return groups.map { group in
            var arrivals: [Int32] = []
            var departures: [Int32] = []
            arrivals.reserveCapacity(key.count * group.count)
            departures.reserveCapacity(key.count * group.count)
            for position in key.indices {
                for run in group {
                    arrivals.append(run.arrivals[position])
                    departures.append(run.departures[position])
                }
            }
            let stops = key.map { $0 >> 2 }
            return (stops, TripPattern.packed(stops: stops, permissions: key.map { UInt8($0 & 3) }, trips: group.map(\.trip),
                                              services: group.map(\.service), arrivals: arrivals, departures: departures), group.count)
        }
    }

    /// Each trip's service key, by trip key − feed base − 1 (nil for a slot with no trip).
    private func tripServices() throws -> [Int?] {
        var fetch = TransitModel.fetch("trips", feedKey: feedKey)
        fetch.select(fetch.key, as: "v0")
        fetch.select(fetch.key(of: "service"), as: "v1")
        let query = fetch.requiredQuery()
        let (id, service) = (0, 1)
        let base = FeedKeys.base(of: feedKey)
        var services: [Int?] = []
        try database.forEachRow(SQLGenerator.prepare(query)) { row in
            let slot = row.int(id) - base - 1
            if slot >= services.count { services += [Int?](repeating: nil, count: slot - services.count + 1) }
            services[slot] = row.int(service)
        }
        return services
    }

    /// The `frequencies.txt` periods of each frequency-based trip.
    private func frequencyPeriods() throws -> [Int: [(start: Int, end: Int, headway: Int)]] {
        var fetch = TransitModel.fetch("frequencies", feedKey: feedKey, inNaturalOrder: true)
        let selected = [fetch.key(of: "trip"), fetch.required("start_time"), fetch.required("end_time"), fetch.required("headway_secs")]
        for (index, value) in selected.enumerated() { fetch.select(value, as: "v\(index)") }
        let query = fetch.requiredQuery()
        let (trip, start, end, headway) = (0, 1, 2, 3)
        var periods: [Int: [(start: Int, end: Int, headway: Int)]] = [:]
        try database.forEachRow(SQLGenerator.prepare(query)) { row in
            periods[row.int(trip), default: []].append((row.int(start), row.int(end), row.int(headway)))
        }
        return periods
    }
}
