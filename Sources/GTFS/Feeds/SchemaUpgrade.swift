import FetchRequest

/// Brings a database written by an earlier transit up to this version in place, when the change
/// can be derived from what it holds (schema 2 → 3: each trip's last stop, from its stop times, and
/// the `directions` table; 3 → 4: the search index `stop_name_prefixes`, from the stops, in place
/// of `stop_words`; 4 → 5: each stop time's service, from its trip, in the departures index).
/// Schema 1 (one feed, another layout) cannot: it is re-imported.
public enum SchemaUpgrade {
    /// True when a database of schema `version` can be upgraded in place.
    public static func canUpgrade(from version: String) -> Bool { ["2", "3", "4"].contains(version) }

    /// Upgrades the database at `path` in one write transaction; returns the version it had, or
    /// nil when it was already current. A database that cannot be upgraded throws the error a query
    /// would (with what to run instead).
    @discardableResult
    public static func upgrade(databaseAt path: String) throws -> String? {
        switch try DatabaseFile.inspect(path) {
        case .current:
            return nil
        case .olderSchema(let version, _) where canUpgrade(from: version):
            try WriteTransaction.run(path: path) { database in
                if version == "2" { try upgradeFromVersion2(database) }
                if version != "4" { try upgradeFromVersion3(database) }
                try upgradeFromVersion4(database)
                try recordCurrentVersion(database)
            }
            return version
        default:
            _ = try TransitDatabase(path: path)  // throws what is wrong and what to do
            throw TransitError.notATransitDatabase(path: path, reason: "it is not of this version")
        }
    }

    /// Creates the indexes of this version a database of the current schema lacks (one added
    /// after the file was written, as `trips_by_route` was, without a schema change), in one write
    /// transaction; returns their names (empty when none was missing). A database without an
    /// index a query relies on answers the same, but may read whole tables to do it.
    @discardableResult
    public static func addMissingIndexes(databaseAt path: String) throws -> [String] {
        guard case .current = try DatabaseFile.inspect(path) else { return [] }
        var added: [String] = []
        try WriteTransaction.run(path: path) { database in
            let present = try SchemaObject.indexNames(in: database)
            let feeds = try Feed.allKeys(in: database)
            for index in Schema.sharedIndexes + feeds.flatMap(Schema.feedIndexes) where !present.contains(index.name) {
                try database.execute(index.sql)
                added.append(index.name)
            }
        }
        return added
    }

    /// Writes the query planner's statistics (`PlannerStatistics`) into a database of the current
    /// schema whose statistics are not exactly those (written before they were, or measured by an
    /// `ANALYZE`), in one write transaction; returns true when it did.
    @discardableResult
    public static func addPlannerStatistics(databaseAt path: String) throws -> Bool {
        guard case .current = try DatabaseFile.inspect(path) else { return false }
        var written = false
        try WriteTransaction.run(path: path) { database in
            let feeds = try Feed.allKeys(in: database)
            if try PlannerStatistics.present(in: database) != PlannerStatistics.expected(feedKeys: feeds) {
                try PlannerStatistics.replace(in: database, feedKeys: feeds)
                written = true
            }
        }
        return written
    }

    /// Schema 2 → 3 inside the caller's transaction: the trips' last stop columns filled from each
    /// feed's stop times (one descent per trip), and `directions` created empty (re-importing a
    /// feed fills it from its directions.txt).
    static func upgradeFromVersion2(_ database: Database) throws {
        for column in [Schema.tripEnds.sequence, Schema.tripEnds.stop] {
            if let sql = Schema.trips.addColumnSQL(column.name) { try database.execute(sql) }
        }
        try database.execute(Schema.directions.sqlIfNotExists)
        for feed in try Feed.allKeys(in: database) {
            // Each trip's stop time with the largest stop_sequence, through the model: a
            // subquery per trip, correlated with the trip being updated.
            let trips = TransitModel.fetch("trips", feedKey: feed)
            var last = TransitModel.fetch("stop_times", feedKey: feed)
            last.filter(last.key(of: "trip") == trips.key)
            last.sort(by: [last.required("stop_sequence").descending])
            last.limit = 1
            var (lastSequence, lastStop) = (last, last)
            lastSequence.select(lastSequence.required("stop_sequence"), as: "stop_sequence")
            lastStop.select(lastStop.key(of: "stop"), as: "stop")
            let keys = FeedKeys.range(of: feed)
            try database.run(SQLGenerator.prepareUpdate(Schema.trips.name, set: [
                (Schema.tripEnds.sequence.name, .subquery(lastSequence.requiredQuery())),
                (trips.entity.keyColumn(of: "last_stop"), .subquery(lastStop.requiredQuery())),
            ], where: trips.key.between(keys.lowerBound, and: keys.upperBound)))
        }
    }

    /// Schema 3 → 4 inside the caller's transaction: `stop_name_prefixes` made from every feed's
    /// stops (as an import makes it), `stop_words` and its index dropped (with their planner
    /// statistics), and the new table's statistics written.
    static func upgradeFromVersion3(_ database: Database) throws {
        try database.execute(Schema.stopNamePrefixes.sqlIfNotExists)
        try StopNamePrefixes.rebuild(in: database)
        try database.execute(Schema.version3StopWords.dropSQL)
        let feeds = try database.fetch(FetchRequest<Feed>()).map(\.key)
        try PlannerStatistics.write(in: database, feedKeys: feeds)
    }

    /// Schema 4 → 5 inside the caller's transaction: each feed's stop times given their trip's
    /// service number (a subquery per stop time, by the trip's key) and the departures index rebuilt with
    /// it, then the statistics of the new index written.
    static func upgradeFromVersion4(_ database: Database) throws {
        for feed in try Feed.allKeys(in: database) {
            let table = Schema.stopTimes(feed)
            if let sql = table.addColumnSQL(Schema.stopTimeService.name) { try database.execute(sql) }
            var stopTimes = TransitModel.fetch("stop_times", feedKey: feed, alias: table.name)
            var trip = TransitModel.fetch("trips", feedKey: feed)
            trip.filter(trip.key == stopTimes.key(of: "trip"))
            trip.select(trip.key(of: "service") - .value(FeedKeys.base(of: feed)), as: "service")
            try database.run(SQLGenerator.prepareUpdate(table.name, set: [(Schema.stopTimeService.name, .subquery(trip.requiredQuery()))],
                                                        where: .all))
            let index = Schema.stopTimesByStopDeparture(feed)
            try database.execute(index.dropSQL)
            try database.execute(index.sql)
        }
        let feeds = try database.fetch(FetchRequest<Feed>()).map(\.key)
        try PlannerStatistics.write(in: database, feedKeys: feeds)
    }

    /// Records this version as the database's, last in an upgrade's transaction.
    static func recordCurrentVersion(_ database: Database) throws {
        try MetadataEntry.set(String(Schema.version), for: .schemaVersion, in: database)
    }
}
