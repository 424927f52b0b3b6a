import FetchRequest

/// Writes the journey planner's timetable of one feed (`planner_<feed>`) from its imported rows:
/// what `transit plan` and `transit reach` read instead of the stop times, so a question reads only
/// the patterns its search reaches.
///
/// Row 0 and rows from −100,000,000 down are the feed's stop index (`PlannerStopIndex`): every
/// stop's position, parent and type, and for each stop the patterns that call there, in blocks of
/// stops and tiles of the map; rows from −1 down the lower bounds searches prune with
/// (`PlannerBoundsBuilder`). Rows 1… are the patterns (`TripPattern`), made
/// by grouping the runs of the feed's trips (each trip, or each run of a `frequencies.txt` trip)
/// by their stops and permissions, then splitting each group so that no run overtakes another.
/// The trips come from the importer's `PlannerTripCollector`, which gathered them as the stop
/// times were loaded; the ones it deferred, or all of them when there is none (a database imported
/// before journey planning), are read back from the stop times in key order, after the import's
/// interpolation. The trips' times wait in the collector's scratch file and are read back one
/// pattern at a time, so the build holds one pattern's times, never the feed's.
struct PlannerTimetableBuilder {
    let database: Database
    let feedKey: Int
    /// The trips gathered during the import, or nil to read every trip back from the database.
    var collected: PlannerTripCollector? = nil

    /// What was written, for the import's report.
    struct Summary {
        var patterns = 0
        var runs = 0
        var bytes = 0
    }

    /// One run of a trip before splitting: where its times are in its pattern's records, and how
    /// far they are shifted (a `frequencies.txt` run).
    private struct Run {
        let trip: Int
        let service: Int
        /// The index of the run's first arrival in the records of its pattern's trips.
        let offset: Int
        let shift: Int32
        /// The time the runs of a group are ordered by: the first time of the run.
        let firstTime: Int32
    }

    /// Each trip's `frequencies.txt` periods, by trip key.
    private typealias Periods = [Int: [(start: Int, end: Int, headway: Int)]]

    func build() throws -> Summary {
        let services = try tripServices()
        let periods = try frequencyPeriods()
        let trips = try collected
            ?? PlannerTripCollector(feedKey: feedKey, tripCount: services.count, scratchDirectory: FileSystem.directory(of: database.path))
        try readBack(into: trips)
        let members = trips.members()
        let table = Schema.planner(feedKey)
        let insert = try database.makeStatement(table.insertSQL(columns: table.columnNames))
        var summary = Summary()
        func write(_ id: Int, _ bytes: [UInt8]) throws {
            insert.bind(integer: Int64(id), at: 1)
            insert.bind(bytes: bytes, at: 2)
            try insert.run()
            summary.bytes += bytes.count
        }
        // Patterns in a fixed order (by their first run's trip), each read back from the spool,
        // split into runs that never overtake one another and written as soon as it is packed:
        // only its stops are kept, for the index, and its least times between calls, for the
        // bounds.
        var patternStops: [[Int]] = []
        var bounds = PlannerBoundsBuilder(feedKey: feedKey)
        for number in patternOrder(members, count: trips.patterns.count, services: services, periods: periods) {
            let calls = trips.patterns[number].calls
            let records = try trips.records(of: members[number], in: number)
            let runs = self.runs(of: members[number], records: records, length: trips.patterns[number].recordLength,
                                 services: services, periods: periods)
            for pattern in split(runs.sorted { ($0.firstTime, $0.trip) < ($1.firstTime, $1.trip) }, calls: calls, times: records) {
                try write(patternStops.count + 1, pattern.bytes)
                bounds.add(try pattern.bytes.withUnsafeBytes { try TripPattern(packed: $0) })
                patternStops.append(pattern.stops)
                summary.runs += pattern.runs
            }
        }
        summary.patterns = patternStops.count
        let stops = try PlannerStopIndex.Stops(database: database, feedKey: feedKey)
        for row in PlannerStopIndex.rows(stops, feedKey: feedKey, patternStops: patternStops) { try write(row.id, row.bytes) }
        let transfers = try PlannerTimetable.transferRules(feedKey: feedKey, in: database).from.values.flatMap { $0 }
        for row in bounds.rows(latitudes: stops.latitudes, longitudes: stops.longitudes, parents: stops.parents, patternStops: patternStops,
                                      transfers: transfers) {
            try write(row.id, row.bytes)
        }
        return summary
    }

    /// The patterns that have at least one run, ordered by the key of the first trip (in key
    /// order) that has one: the order their rows are written in.
    private func patternOrder(_ members: PlannerTripCollector.Members, count: Int, services: [UInt32], periods: Periods) -> [Int] {
        let base = FeedKeys.base(of: feedKey)
        func runs(_ slot: Int) -> Bool {
            guard slot < services.count, services[slot] != 0 else { return false }
            guard let periods = periods[base + 1 + slot] else { return true }
            return periods.contains { $0.headway > 0 && $0.start < $0.end }
        }
        var firsts: [(slot: Int, pattern: Int)] = []
        for pattern in 0..<count {
            if let slot = members[pattern].first(where: { runs(Int($0)) }) { firsts.append((Int(slot), pattern)) }
        }
        return firsts.sorted { $0.slot < $1.slot }.map(\.pattern)
    }

    /// The runs of a pattern's trips (`slots`, their `records` each `length` values long) that
    /// have a service: one per trip, or one per departure of a `frequencies.txt` trip.
    private func runs(of slots: ArraySlice<Int32>, records: [Int32], length: Int, services: [UInt32], periods: Periods) -> [Run] {
        let base = FeedKeys.base(of: feedKey)
        var runs: [Run] = []
        for (index, slot) in slots.lazy.map({ Int($0) }).enumerated() where slot < services.count && services[slot] != 0 {
            let trip = base + 1 + slot, service = base + Int(services[slot])
            let first = Int(UInt32(bitPattern: records[index * length])) | Int(records[index * length + 1]) << 32
            let offset = index * length + 2
            guard let periods = periods[trip] else {
                runs.append(Run(trip: trip, service: service, offset: offset, shift: 0, firstTime: Int32(clamping: first)))
                continue
            }
            // Runs leave at start_time, start_time + headway, … before end_time; each call is
            // reached its template offset (from the first time) after the run leaves.
            for period in periods where period.headway > 0 {
                var start = period.start
                while start < period.end {
                    runs.append(Run(trip: trip, service: service, offset: offset, shift: Int32(clamping: start - first),
                                    firstTime: Int32(clamping: start)))
                    start += period.headway
                }
            }
        }
        return runs
    }

    /// Reads the trips `trips` still waits for from the stop times, in key order: one keyed read
    /// per trip when they are few, else one pass over the table.
    private func readBack(into trips: PlannerTripCollector) throws {
        let pending: [Int]?
        if collected == nil {
            trips.readEverythingBack()
            pending = nil
        } else {
            let deferred = trips.readBackMode()
            if deferred.isEmpty { return }
            pending = deferred.count * 4 < trips.tripCount ? deferred : nil
        }
        var stopTimes = TransitModel.fetch("stop_times", feedKey: feedKey, inNaturalOrder: true)
        let selected = [stopTimes.key(of: "trip"), stopTimes.key(of: "stop"), stopTimes.required("stop_sequence"), stopTimes.required("arrival_time"),
                        stopTimes.required("departure_time"), stopTimes.required("pickup_type"), stopTimes.required("drop_off_type")]
        // Read by position, in the order selected here.
        for (index, value) in selected.enumerated() { stopTimes.select(value, as: "v\(index)") }
        let (trip, stop, sequence, arrival, departure, pickup, dropOff) = (0, 1, 2, 3, 4, 5, 6)
        func add(_ row: Row) {
            trips.add(trip: row.int(trip), sequence: row.int(sequence), stop: row.int(stop), arrival: row.optionalInt(arrival),
                      departure: row.optionalInt(departure), pickup: row.optionalInt(pickup), dropOff: row.optionalInt(dropOff))
        }
        if let pending {
            stopTimes.filter(stopTimes.key(of: "trip") == .variable("trip"))
            let template = SQLGenerator.prepare(stopTimes.requiredQuery())
            for key in pending { try database.forEachRow(try template.substituting(["trip": key]), add) }
        } else {
            try database.forEachRow(SQLGenerator.prepare(stopTimes.requiredQuery()), add)
        }
        trips.finish()
    }

    /// Splits runs of one stop pattern (sorted by first time) into groups in which each run is at
    /// or after the one before at every stop it can be boarded or left at: greedily, each run
    /// joins the first group whose last run it does not overtake.
    private func split(_ runs: [Run], calls key: [Int], times: [Int32]) -> [(stops: [Int], bytes: [UInt8], runs: Int)] {
        func arrival(_ run: Run, _ position: Int) -> Int32 { times[run.offset + 2 * position] &+ run.shift }
        func departure(_ run: Run, _ position: Int) -> Int32 { times[run.offset + 2 * position + 1] &+ run.shift }
        let used = key.indices.filter { key[$0] & 3 != 0 }
        var groups: [[Run]] = []
        for run in runs {
            let fits = groups.firstIndex { group in
                let last = group[group.count - 1]
                return used.allSatisfy { arrival(run, $0) >= arrival(last, $0) && departure(run, $0) >= departure(last, $0) }
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
                    arrivals.append(arrival(run, position))
                    departures.append(departure(run, position))
                }
            }
            let stops = key.map { $0 >> 2 }
            return (stops, TripPattern.packed(stops: stops, permissions: key.map { UInt8($0 & 3) }, trips: group.map(\.trip),
                                              services: group.map(\.service), arrivals: arrivals, departures: departures), group.count)
        }
    }

    /// Each trip's service key − feed base, by trip key − feed base − 1 (0 for a slot with no trip):
    /// 32 bits, as there is one for each of a national feed's millions of trips.
    private func tripServices() throws -> [UInt32] {
        var fetch = TransitModel.fetch("trips", feedKey: feedKey)
        fetch.select(fetch.key, as: "v0")
        fetch.select(fetch.key(of: "service"), as: "v1")
        let query = fetch.requiredQuery()
        let (id, service) = (0, 1)
        let base = FeedKeys.base(of: feedKey)
        var services: [UInt32] = []
        try database.forEachRow(SQLGenerator.prepare(query)) { row in
            let slot = row.int(id) - base - 1
            if slot >= services.count { services += [UInt32](repeating: 0, count: slot - services.count + 1) }
            services[slot] = UInt32(row.int(service) - base)
        }
        return services
    }

    /// The `frequencies.txt` periods of each frequency-based trip.
    private func frequencyPeriods() throws -> Periods {
        var fetch = TransitModel.fetch("frequencies", feedKey: feedKey, inNaturalOrder: true)
        let selected = [fetch.key(of: "trip"), fetch.required("start_time"), fetch.required("end_time"), fetch.required("headway_secs")]
        for (index, value) in selected.enumerated() { fetch.select(value, as: "v\(index)") }
        let query = fetch.requiredQuery()
        let (trip, start, end, headway) = (0, 1, 2, 3)
        var periods: Periods = [:]
        try database.forEachRow(SQLGenerator.prepare(query)) { row in
            periods[row.int(trip), default: []].append((row.int(start), row.int(end), row.int(headway)))
        }
        return periods
    }
}
