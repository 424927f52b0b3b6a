import FetchRequest

/// A row of `stop_name_prefixes`, the search index of stop names (`StopNamePrefixes` writes it,
/// `StopSearchQuery` reads it): one prefix of one word of a stop's normalized name, the stop whose
/// name it is (`stop`), the stop a rider is shown for it (`shown`: in the stops listing the
/// station of a platform or entrance, else the stop itself) with that stop's normalized name and
/// stop_id, and the listings the row serves (`shownIn`). Its table and columns are declared here
/// once: the schema lays the table out from them, the importer and the search name them by them.
struct StopNamePrefix: CatalogRecord, Equatable {
    static let tableName = "stop_name_prefixes"
    /// The table is keyed by (prefix, shown_name, shown_stop_id, shown, stop), without a rowid; no
    /// request fetches its rows by one identifier, so this names the stop a row belongs to.
    static let primaryKey = Columns.stop.rawValue

    enum Columns: String, CaseIterable {
        case prefix
        case shownName = "shown_name"
        case shownStopID = "shown_stop_id"
        case shown, stop
        case shownIn = "shown_in"
    }

    let prefix: String
    let shownName: String
    let shownStopID: String
    /// The key of the stop shown (`stops.id`).
    let shownKey: Int
    /// The key of the stop whose name it is.
    let stopKey: Int
    /// The listings the row serves (`StopNamePrefixes.Listing`).
    let shownIn: Int

    init(row: Row) throws {
        prefix = row.string(Self.recordColumn(.prefix))
        shownName = row.string(Self.recordColumn(.shownName))
        shownStopID = row.string(Self.recordColumn(.shownStopID))
        shownKey = row.int(Self.recordColumn(.shown))
        stopKey = row.int(Self.recordColumn(.stop))
        shownIn = row.int(Self.recordColumn(.shownIn))
    }

}
