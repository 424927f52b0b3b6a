import FetchRequest

/// A row of `metadata`: one fact the database records about itself, by key (its schema version,
/// the largest feed key given; a database of schema 1 also its one feed's source).
struct MetadataEntry: CatalogRecord, Equatable {
    static let tableName = "metadata"
    static let primaryKey = Columns.key.rawValue

    enum Columns: String, CaseIterable {
        case key, value
    }

    /// The keys transit writes and reads.
    enum Key: String {
        /// `Schema.version` of the layout the database was written in.
        case schemaVersion = "schema_version"
        /// The largest feed key ever given (`FeedCatalog.nextFeedKey`), so none is given twice.
        case lastFeedKey = "last_feed_key"
        /// Schema 1 only: where its one feed was imported from.
        case source
    }

    let key: String
    let value: String?

    init(row: Row) throws {
        key = row.string(Self.recordColumn(.key))
        value = row.optionalString(Self.recordColumn(.value))
    }

    /// The request for the entry of `key`.
    static func entry(_ key: Key) -> FetchRequest<MetadataEntry> {
        FetchRequest<MetadataEntry>().filter(column(.key) == key.rawValue)
    }

    /// The value recorded for `key`, or nil.
    static func value(of key: Key, in database: Database) throws -> String? {
        try database.fetchOne(entry(key))?.value
    }

    /// Records `value` for `key`, replacing what was recorded (inside the caller's transaction).
    static func set(_ value: String, for key: Key, in database: Database) throws {
        try database.run(delete(where: column(.key) == key.rawValue))
        try database.run(insert([(.key, .text(key.rawValue)), (.value, .text(value))]))
    }
}
