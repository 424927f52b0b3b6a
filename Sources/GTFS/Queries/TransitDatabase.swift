import FetchRequest

/// A database written by `transit import`, opened read-only for queries.
///
/// Opening checks that the file exists, is SQLite, and has this version's schema, so every query
/// command fails early with a message that says to re-import, never with an SQL error.
public final class TransitDatabase {
    /// The connection (read-only: queries never change the file).
    public let database: Database
    /// The feed's agency time zone.
    public let timeZone: AgencyTimeZone
    /// The largest departure time in the feed, in seconds (can exceed a day).
    public let largestTime: Int
    /// True when the feed has trips run by `frequencies.txt`.
    public let hasFrequencies: Bool

    /// Opens the database at `path`.
    public init(path: String) throws {
        guard FileSystem.kind(of: path) == .file else { throw TransitError.noDatabase(path: path) }
        do {
            database = try Database(path: path, mode: .readOnly)
        } catch let error as DatabaseError {
            throw TransitError.notATransitDatabase(path: path, reason: error.message)
        }
        var metadata: [String: String] = [:]
        do {
            try database.forEachRow(SQLGenerator.prepare(Query(table: "metadata").select(Column("key"), Column("value")))) {
                metadata[$0.string(0)] = $0.string(1)
            }
        } catch let error as DatabaseError {
            throw TransitError.notATransitDatabase(path: path, reason: error.message)
        }
        guard let version = metadata["schema_version"] else {
            throw TransitError.notATransitDatabase(path: path, reason: "it has no schema version")
        }
        guard version == String(Schema.version) else {
            throw TransitError.schemaMismatch(path: path, found: version, expected: Schema.version)
        }
        guard let zoneName = metadata["agency_timezone"], let zone = AgencyTimeZone(identifier: zoneName) else {
            throw TransitError.notATransitDatabase(path: path, reason: "its agency time zone is missing or unknown to this system; is tzdata installed?")
        }
        timeZone = zone
        largestTime = Int(metadata["largest_time"] ?? "") ?? 0
        var frequencies = false
        try database.forEachRow(SQLGenerator.prepare(Query(table: "frequencies").select(Column("trip")).limited(to: 1))) { _ in
            frequencies = true
        }
        hasFrequencies = frequencies
    }
}
