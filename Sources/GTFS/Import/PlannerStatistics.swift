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
    /// `sqlite_stat1` rows: table, index (nil: the table's row count alone), and the `stat` text
    /// (rows, then rows per distinct value of each leading column prefix of the index).
    static func rows(feedKeys: [Int]) -> [(table: String, index: String?, stat: String)] {
        var rows: [(table: String, index: String?, stat: String)] = [
            ("feeds", "feeds_by_name", "10 1"),
            ("agency", nil, "50"),
            ("stops", "stops_by_stop_id", "5000 1 1"),
            ("stops", "stops_by_location", "5000 1 1"),
            ("stops", "stops_by_normalized_name", "5000 2"),
            ("stops", "stops_by_parent", "1500 3"),
            ("routes", "routes_by_route_id", "500 1 1"),
            ("services", "services_by_service_id", "200 1 1"),
            ("calendar", nil, "200"),
            ("calendar_dates", "calendar_dates", "2000 10 1"),
            ("trips", "trips_by_trip_id", "100000 1 1"),
            ("trips", "trips_by_service", "100000 500"),
            ("trips", "trips_by_route", "100000 200"),
            ("frequencies", "frequencies_by_trip", "1000 3"),
            // 5,000 names of about two 6-letter words: 60,000 prefixes, 20 rows a prefix, 2 a name.
            ("stop_name_prefixes", "stop_name_prefixes", "60000 20 2 1 1 1"),
            ("feed_info", "feed_info_by_feed", "10 1"),
        ]
        for feedKey in feedKeys {
            let tables = FeedTables(feed: feedKey)
            rows += [
                (tables.stopTimes, tables.stopTimes, "3000000 30 1"),
                (tables.stopTimes, tables.stopTimes + "_by_stop_departure", "3000000 300 2 2"),
                (tables.serviceDays, tables.serviceDays, "20000 60 1"),
                (tables.shapes, tables.shapes, "500000 500 1"),
            ]
        }
        return rows
    }

    /// The rows a database of the feeds keyed `feedKeys` holds, as text triples.
    static func expected(feedKeys: [Int]) -> Set<[String]> {
        Set(rows(feedKeys: feedKeys).map { [$0.table, $0.index ?? "", $0.stat] })
    }

    /// The rows `sqlite_stat1` holds (none when it is missing).
    static func present(in database: Database) throws -> Set<[String]> {
        guard try database.count(Query(table: "sqlite_master").filter(Column("name") == "sqlite_stat1")) > 0 else { return [] }
        var found: Set<[String]> = []
        try database.forEachRow(SQLGenerator.prepare(Query(table: "sqlite_stat1").select(Column("tbl"), Column("idx"), Column("stat")))) {
            found.insert([$0.string("tbl"), $0.optionalString("idx") ?? "", $0.string("stat")])
        }
        return found
    }

    /// Replaces every row of `sqlite_stat1` (measured ones too) with those of the feeds keyed
    /// `feedKeys`.
    static func replace(in database: Database, feedKeys: [Int]) throws {
        try database.execute("ANALYZE sqlite_master")
        try database.run(SQLGenerator.prepareDelete(from: "sqlite_stat1", where: .all))
        try write(in: database, feedKeys: feedKeys)
    }

    /// Writes the rows of the shared tables and of the feeds keyed `feedKeys` (replacing any
    /// there), inside the caller's transaction. Connections opened afterwards plan with them.
    static func write(in database: Database, feedKeys: [Int]) throws {
        // ANALYZE of the schema table alone creates sqlite_stat1 (empty) when it is missing.
        try database.execute("ANALYZE sqlite_master")
        for row in rows(feedKeys: feedKeys) {
            var same = Column("tbl") == row.table
            same = same && (row.index.map { Column("idx") == $0 } ?? Column("idx").isNull)
            try database.run(SQLGenerator.prepareDelete(from: "sqlite_stat1", where: same))
            try database.run(SQLGenerator.prepareInsert(into: "sqlite_stat1", values: [
                ("tbl", .text(row.table)), ("idx", row.index.map { .text($0) } ?? .null), ("stat", .text(row.stat)),
            ]))
        }
    }
}
