import FetchRequest

/// What an import records of a feed beyond its `feeds` row, in `metadata`: one row per fact and
/// feed, keyed `<fact>.<feed key>`. They need no change of the schema, so a file written before a
/// fact was recorded simply lacks it, and a query then does what it would without the fact.
///
///     SELECT "metadata"."value" FROM "metadata" WHERE "metadata"."key" = ?   -- 'stop_headsigns.1'
enum FeedFacts {
    /// The key of the number of the feed's stop times that have a `stop_headsign`.
    static func stopHeadsignsKey(ofFeed feed: Int) -> String { "stop_headsigns.\(feed)" }

    /// Records that `count` of the feed's stop times have a `stop_headsign` (rows the import
    /// then dropped as duplicates may be counted: 0 means none).
    static func recordStopHeadsigns(_ count: Int, ofFeed feed: Int, in database: Database) throws {
        let key = stopHeadsignsKey(ofFeed: feed)
        try database.run(MetadataEntry.delete(where: MetadataEntry.column(.key) == key))
        try database.run(MetadataEntry.insert([(.key, .text(key)), (.value, .text(String(count)))]))
    }

    /// How many of the feed's stop times have a `stop_headsign`, as its import counted them; nil
    /// when it did not (a file written before the count was recorded).
    static func stopHeadsigns(ofFeed feed: Int, in database: Database) throws -> Int? {
        let entry = try database.fetchOne(FetchRequest<MetadataEntry>().filter(MetadataEntry.column(.key) == stopHeadsignsKey(ofFeed: feed)))
        return entry?.value.flatMap { Int($0) }
    }

    /// Removes every fact of the feed (with the feed itself).
    static func remove(ofFeed feed: Int, from database: Database) throws {
        try database.run(MetadataEntry.delete(where: MetadataEntry.column(.key) == stopHeadsignsKey(ofFeed: feed)))
    }
}
