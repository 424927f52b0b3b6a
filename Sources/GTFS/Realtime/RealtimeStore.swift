import FetchRequest

/// Stores a realtime dataset for one feed: every realtime row of that feed replaced in one write
/// transaction, each trip update matched to the run of a trip it applies to.
///
/// Rule 1: a TripUpdate applies to the run of `trip_id` on its `start_date`; without one, to the
/// run whose service date is, among the day of the message timestamp and the day before (in the
/// feed's zone), one on which the trip runs, and whose start (its first departure on that date) is
/// nearest to the timestamp. A trip run by `frequencies.txt` is matched by `start_date` and
/// `start_time` (the run starting then); without `start_time` it is unmatched.
public enum RealtimeStore {
    /// Stores `dataset` as the realtime data of the feed named `feedName` (nil: the database's only
    /// feed) in the database at `path`; `now` stands for the header timestamp when a message has none.
    public static func store(_ dataset: RealtimeDataset, feedNamed feedName: String?, databaseAt path: String, now: Int) throws -> RealtimeSummary {
        if StoreLocation.isPostgres(path) { return try storeOnServer(dataset, feedNamed: feedName, at: path, now: now) }
        guard case .current = try DatabaseFile.inspect(path) else {
            _ = try TransitDatabase(path: path)  // throws the reason and what to run
            throw TransitError.notATransitDatabase(path: path, reason: "it is not of this version")
        }
        var summary: RealtimeSummary?
        try WriteTransaction.run(path: path) { database in
            try makeTables(in: database)
            summary = try replace(with: dataset, feedNamed: feedName, in: database, now: now)
        }
        return summary!
    }

    /// Makes the realtime tables and indexes a database lacks (its first realtime read, or an
    /// import bound for a server, where realtime is stored in place and the tables must exist).
    public static func makeTables(inDatabaseAt path: String) throws {
        try WriteTransaction.run(path: path) { try makeTables(in: $0) }
    }

    static func makeTables(in database: Database) throws {
        try dropOlderRealtimeTables(in: database)
        for table in RealtimeSchema.tables { try database.execute(table.sqlIfNotExists) }
        for index in RealtimeSchema.indexes { try database.execute(index.sqlIfNotExists) }
    }

    /// On a PostgreSQL primary: the same rows written in one transaction, in the tables every
    /// import makes (StorePublisher), so readers on the primary and its standbys see the previous
    /// read or this one whole. The transaction waits for an import or `feeds` change in progress.
    static func storeOnServer(_ dataset: RealtimeDataset, feedNamed feedName: String?, at location: String, now: Int) throws -> RealtimeSummary {
        let database = try Database(path: location, mode: .readWrite)
        try database.execute("BEGIN")
        do {
            do {
                _ = try database.fetch(Feed.byName)
            } catch let error as DatabaseError where error.isMissingTable {
                throw TransitError.noFeedsOnServer(location: database.path)
            }
            let summary = try replace(with: dataset, feedNamed: feedName, in: database, now: now)
            try database.execute("COMMIT")
            return summary
        } catch let error as DatabaseError where error.isMissingTable {
            try? database.execute("ROLLBACK")
            throw RealtimeError.noTablesOnServer(location: database.path)
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// Replaces the realtime data of the feed named `feedName` (nil: the only one) in `database`,
    /// inside the caller's write transaction.
    static func replace(with dataset: RealtimeDataset, feedNamed feedName: String?, in database: Database, now: Int) throws -> RealtimeSummary {
        let feeds = try database.fetch(Feed.byName)
        let feed: Feed
        if let feedName {
            guard let named = feeds.first(where: { $0.name == feedName }) else {
                throw TransitError.unknownFeed(name: feedName, known: feeds.map(\.name))
            }
            feed = named
        } else {
            guard feeds.count == 1, let only = feeds.first else {
                throw RealtimeError.whichFeed(known: feeds.map(\.name))
            }
            feed = only
        }
        try removeRealtime(ofFeed: feed.key, from: database)
        var writer = Writer(database: database, feed: feed, now: now, timestamp: dataset.sources.compactMap(\.timestamp).min() ?? now)
        var summary = RealtimeSummary(feed: feed.name, sources: dataset.sources)
        try writer.write(dataset, into: &summary)
        return summary
    }

    /// A database that read realtime data with a development build whose realtime tables lack a
    /// column of these: realtime data is replaced at every read anyway, so the tables go (every
    /// feed's realtime data with them) and are made anew.
    static func dropOlderRealtimeTables(in database: Database) throws {
        let current = try RealtimeSchema.tables.allSatisfy { table in
            // Qualified names: SQLite would take an unknown bare "name" for a string.
            let probe = SQLGenerator.prepare(Query(table: table.name).select(table.columnNames.map { SelectedProperty(Column($0, of: table.name)) }).limited(to: 1))
            do {
                _ = try database.makeStatement(probe.sql)
                return true
            } catch let error as DatabaseError where error.isMissingTable {
                return true  // made below
            } catch is DatabaseError {
                return false
            }
        }
        if !current { for table in RealtimeSchema.tables { try database.execute(table.dropSQL) } }
    }

    /// Deletes every realtime row of feed `feed`: each realtime entity's rows as the feed's model
    /// scopes them (its feed's column, its stops' key range, or its parent rows'), the rows that
    /// belong to others first.
    static func removeRealtime(ofFeed feed: Int, from database: Database) throws {
        for entity in ["realtime_stop_time_updates", "realtime_stop_times", "realtime_added_departures", "realtime_trip_updates",
                       "realtime_vehicles", "realtime_alert_texts", "realtime_alert_periods", "realtime_alert_entities", "realtime_alerts",
                       "realtime_sources", "realtime_feeds"] {
            try database.run(TransitModel.deleteRows(of: entity, feedKey: feed))
        }
    }
}

/// A realtime read that cannot go on, said in one line.
public enum RealtimeError: Error, CustomStringConvertible, Equatable {
    /// Several feeds and no `--feed`.
    case whichFeed(known: [String])
    /// A server whose feeds were stored by a build that made no realtime tables.
    case noTablesOnServer(location: String)

    public var description: String {
        switch self {
        case .whichFeed(let known):
            return known.isEmpty
                ? "the database holds no feeds: import the timetable the realtime data belongs to first (transit import FEED)"
                : "the database holds several feeds (\(known.joined(separator: ", "))): say which one the realtime data belongs to with --feed NAME"
        case .noTablesOnServer(let location):
            return "\(location) has no realtime tables (its feeds were stored by an earlier build): run `transit feeds upgrade --db \(TransitError.shellQuoted(location))` once, then read the realtime data again"
        }
    }
}
