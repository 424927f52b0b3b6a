import FetchRequest

/// The statistics SQLite's query planner reads (`sqlite_stat1`), written by hand rather than
/// measured by `ANALYZE`: the figures of one large city's feed, the same for every database.
///
/// Without statistics SQLite guesses every table to be big and every index to narrow a search to
/// about ten rows; its guesses serve the commands' requests but read some predicates from the
/// wrong end (`ANY trips.stop_times.stop.stop_name BEGINSWITH[cd] …` over routes started from every
/// stop time: 0.8 s on the Vilnius feed). Measured statistics fix those, but make a small feed's
/// plans differ from a big one's (SQLite then scans a 10-stop table rather than search it), so
/// `--explain` on a test feed would not show what a city's feed does. These fixed figures, of the
/// size of a city's feed (5,000 stops, 100,000 trips, 3 million stop times), give every feed the
/// plans a big feed needs.
enum PlannerStatistics {
    /// `sqlite_stat1` rows of the shared tables and of the feeds keyed `feedKeys`, each given for a
    /// table or index the schema declares.
    static func rows(feedKeys: [Int]) -> [PlannerStatistic] {
        var rows = [
            PlannerStatistic(Schema.feedsByName, "10 1"),
            PlannerStatistic(Schema.agency, "50"),
            PlannerStatistic(Schema.stopsByStopID, "5000 1 1"),
            PlannerStatistic(Schema.stopsByLocation, "5000 1 1"),
            PlannerStatistic(Schema.stopsByNormalizedName, "5000 2"),
            PlannerStatistic(Schema.stopsByParent, "1500 3"),
            PlannerStatistic(Schema.routesByRouteID, "500 1 1"),
            PlannerStatistic(Schema.servicesByServiceID, "200 1 1"),
            PlannerStatistic(Schema.calendar, "200"),
            PlannerStatistic(primaryKeyOf: Schema.calendarDates, "2000 10 1"),
            PlannerStatistic(Schema.tripsByTripID, "100000 1 1"),
            PlannerStatistic(Schema.tripsByService, "100000 500"),
            PlannerStatistic(Schema.tripsByRoute, "100000 200"),
            PlannerStatistic(Schema.frequenciesByTrip, "1000 3"),
            // 5,000 names of about two 6-letter words: 60,000 prefixes, 20 rows a prefix, 2 a name.
            PlannerStatistic(primaryKeyOf: Schema.stopNamePrefixes, "60000 20 2 1 1 1"),
            PlannerStatistic(Schema.feedInfoByFeed, "10 1"),
        ]
        for feedKey in feedKeys {
            rows += [
                PlannerStatistic(primaryKeyOf: Schema.stopTimes(feedKey), "3000000 30 1"),
                PlannerStatistic(Schema.stopTimesByStopDeparture(feedKey), "3000000 300 2 2 2"),
                PlannerStatistic(primaryKeyOf: Schema.serviceDays(feedKey), "20000 60 1"),
                PlannerStatistic(primaryKeyOf: Schema.shapes(feedKey), "500000 500 1"),
            ]
        }
        return rows
    }

    /// The rows a database of the feeds keyed `feedKeys` holds.
    static func expected(feedKeys: [Int]) -> Set<PlannerStatistic> {
        Set(rows(feedKeys: feedKeys))
    }

    /// The rows `sqlite_stat1` holds (none when it is missing).
    static func present(in database: Database) throws -> Set<PlannerStatistic> {
        guard try SchemaObject.exists(PlannerStatistic.tableName, in: database) else { return [] }
        return Set(try database.fetch(FetchRequest<PlannerStatistic>()))
    }

    /// Replaces every row of `sqlite_stat1` (measured ones too) with those of the feeds keyed
    /// `feedKeys`.
    static func replace(in database: Database, feedKeys: [Int]) throws {
        try database.execute("ANALYZE sqlite_master")
        try database.run(PlannerStatistic.delete(where: .all))
        try write(in: database, feedKeys: feedKeys)
    }

    /// Writes the rows of the shared tables and of the feeds keyed `feedKeys` (replacing any
    /// there), inside the caller's transaction. Connections opened afterwards plan with them.
    static func write(in database: Database, feedKeys: [Int]) throws {
        // ANALYZE of the schema table alone creates sqlite_stat1 (empty) when it is missing.
        try database.execute("ANALYZE sqlite_master")
        for row in rows(feedKeys: feedKeys) {
            try database.run(PlannerStatistic.delete(where: row.same))
            try database.run(row.insert)
        }
    }
}
