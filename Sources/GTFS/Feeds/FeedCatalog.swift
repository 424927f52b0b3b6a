import FetchRequest

/// The bookkeeping of feeds in a database opened for writing: finding a feed by name, choosing the
/// next feed key, and removing every row of a feed.
public enum FeedCatalog {
    /// The key of the feed named `name`, or nil.
    static func key(ofFeedNamed name: String, in database: Database) throws -> Int? {
        let request = FetchRequest<Feed>().filter(Feed.column(Feed.columns.name) == name)
        return try database.fetchIdentifiers(request).first.map { Int($0) }
    }

    /// The key of the feed named `name` in the database at `location` (a file, or a server where
    /// this process can open one), and the tables only its rows fill (`stop_times_<feed>` and the
    /// like); nil when there is no such feed.
    public static func ownTables(ofFeedNamed name: String, inDatabaseAt location: String) throws -> (key: Int, tables: [String])? {
        guard let key = try key(ofFeedNamed: name, in: Database(path: location, mode: .readOnly)) else { return nil }
        return (key, Schema.feedTables(key).map(\.name))
    }

    /// A key no feed has had in this database: the largest ever given, plus one (kept in
    /// `metadata.last_feed_key`, so a removed feed's key and table names are never reused).
    static func nextFeedKey(in database: Database) throws -> Int {
        let largest = try MetadataEntry.value(of: .lastFeedKey, in: database).flatMap { Int($0) } ?? 0
        return max(largest, try Feed.allKeys(in: database).max() ?? 0) + 1
    }

    /// Removes the feed whose key is `feed` and everything of it: its rows in the shared tables
    /// (each one key range), its search prefixes, and its own tables. Runs inside the caller's
    /// transaction.
    static func removeRows(ofFeed feed: Int, from database: Database) throws {
        for (table, column) in Schema.feedKeyedTables {
            let keys = FeedKeys.range(of: feed)
            try database.run(SQLGenerator.prepareDelete(from: table.name, where: Column(column).between(keys.lowerBound, and: keys.upperBound)))
        }
        // Each entity's rows as the feed's model scopes them (a key range, or the feed's column),
        // the rows that refer to others first.
        for entity in ["frequencies", "trips", "directions", "calendar_dates", "calendar", "services", "routes", "stops", "agency", "feed_info"] {
            try database.run(TransitModel.deleteRows(of: entity, feedKey: feed))
        }
        try database.run(DownloadRecord.delete(where: DownloadRecord.column(.feed) == feed))
        // Its realtime data goes with it (the tables exist once realtime was read).
        if try SchemaObject.exists(RealtimeSchema.sources.name, in: database) {
            try RealtimeStore.removeRealtime(ofFeed: feed, from: database)
        }
        for table in Schema.feedTables(feed) { try database.execute(table.dropSQL) }
        try database.run(TransitModel.deleteRows(of: "feeds", feedKey: feed))
        try FeedFacts.remove(ofFeed: feed, from: database)
        try recordKeyGiven(feed, in: database)
    }

    /// Remembers that feed key `feed` has been given, so `nextFeedKey` never gives it again.
    static func recordKeyGiven(_ feed: Int, in database: Database) throws {
        let recorded = try MetadataEntry.value(of: .lastFeedKey, in: database).flatMap { Int($0) } ?? 0
        try MetadataEntry.set(String(max(feed, recorded)), for: .lastFeedKey, in: database)
    }

    /// Removes the feed named `name` from the database at `path`, in one transaction; throws
    /// `TransitError.unknownFeed` (with the names there are) when there is no such feed.
    public static func remove(feedNamed name: String, fromDatabaseAt path: String) throws {
        guard case .current = try DatabaseFile.inspect(path) else {
            _ = try TransitDatabase(path: path)  // throws the reason the file cannot be changed
            throw TransitError.notATransitDatabase(path: path, reason: "it is not of this version")
        }
        try WriteTransaction.run(path: path) { database in
            guard let key = try key(ofFeedNamed: name, in: database) else {
                let names = try database.fetch(Feed.byName).map(\.name)
                throw TransitError.unknownFeed(name: name, known: names)
            }
            try removeRows(ofFeed: key, from: database)
        }
    }
}

/// Where a feed came from, as recorded at its import: what `transit import --feed NAME` with no
/// source imports again.
public struct RecordedSource: Sendable, Equatable {
    /// The path or URL.
    public let source: String
    /// The validators of the last download, when it came from a URL.
    public let etag: String?
    public let lastModified: String?
    /// When it was imported (ISO 8601).
    public let importedAt: String

    /// The source of the feed named `name` in the database at `path`, or nil when there is no such
    /// feed (or no database).
    public static func of(feedNamed name: String, inDatabaseAt path: String) throws -> RecordedSource? {
        guard case .current = try DatabaseFile.inspect(path) else { return nil }
        let database = try Database(path: path, mode: .readOnly)
        guard let feed = try database.fetchOne(FetchRequest<Feed>().filter(Feed.column(Feed.columns.name) == name)) else { return nil }
        var download: DownloadRecord?
        do {
            download = try database.fetchOne(DownloadRecord.of(feed: feed.key))
        } catch let error as DatabaseError where error.isMissingTable {}
        return RecordedSource(source: feed.source, etag: download?.etag, lastModified: download?.lastModified, importedAt: feed.importedAt)
    }
}

/// What is at a database path, as far as `transit` is concerned.
public enum DatabaseFile: Equatable {
    /// No file.
    case missing
    /// A file that is not a database `transit import` wrote (or not SQLite at all).
    case notTransit
    /// A database of this version.
    case current
    /// A database of an earlier version, holding one feed imported from `source`.
    case olderSchema(version: String, source: String)
    /// A database of a later version of transit.
    case newerSchema(version: String)

    /// Looks at the file at `path` without changing it.
    public static func inspect(_ path: String) throws -> DatabaseFile {
        guard FileSystem.kind(of: path) == .file else { return .missing }
        return try inspect(try Database(path: path, mode: .readOnly))
    }

    /// What the open `database` is, from its metadata.
    static func inspect(_ database: Database) throws -> DatabaseFile {
        var metadata: [String: String] = [:]
        do {
            for entry in try database.fetch(FetchRequest<MetadataEntry>()) { metadata[entry.key] = entry.value ?? "" }
        } catch let error as DatabaseError where error.isNotADatabase || error.isMissingTable || error.isMissingColumn {
            // Not SQLite, or SQLite without transit's tables (or with a `metadata` table of
            // another layout, as MBTiles files have): anything else (I/O, locks) is an error,
            // never a reason to write a new file over this one.
            return .notTransit
        }
        guard let version = metadata[MetadataEntry.Key.schemaVersion.rawValue], let number = Int(version) else { return .notTransit }
        if number == Schema.version { return .current }
        if number > Schema.version { return .newerSchema(version: version) }
        return .olderSchema(version: version, source: metadata[MetadataEntry.Key.source.rawValue] ?? "")
    }
}
