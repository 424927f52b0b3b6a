import FetchRequest

/// A row of `agency`: an agency of a feed.
public struct Agency: ModelRecord, Sendable, Equatable {
    public static let tableName = "agency"
    public static let entityName = "agency"
    public static let columnNames = ["id", "feed", "agency_id", "agency_name", "agency_url", "agency_timezone", "agency_lang", "agency_phone"]

    /// The integer key inside the database.
    public let key: Int
    /// The key of its feed.
    public let feedKey: Int
    /// The feed's `agency_id`, if it gives one (optional with a single agency).
    public let agencyID: String?
    public let name: String
    public let url: String?
    public let timeZone: String?
    public let language: String?
    public let phone: String?

    private static let columns = (key: RecordColumn<Agency>("id"), feed: RecordColumn<Agency>("feed"), agencyID: RecordColumn<Agency>("agency_id"),
                                  name: RecordColumn<Agency>("agency_name"), url: RecordColumn<Agency>("agency_url"),
                                  timeZone: RecordColumn<Agency>("agency_timezone"), language: RecordColumn<Agency>("agency_lang"),
                                  phone: RecordColumn<Agency>("agency_phone"))

    public init(row: Row) throws {
        let c = Agency.columns
        key = row.int(c.key)
        feedKey = row.int(c.feed)
        agencyID = row.optionalString(c.agencyID)
        name = row.string(c.name)
        url = row.optionalString(c.url)
        timeZone = row.optionalString(c.timeZone)
        language = row.optionalString(c.language)
        phone = row.optionalString(c.phone)
    }

    /// The keys of `agency` for typed predicates.
    public struct Keys: Sendable {
        public let agencyID = ModelKey<Agency, String?>("agency_id")
        public let name = ModelKey<Agency, String?>("agency_name")
        public let timeZone = ModelKey<Agency, String?>("agency_timezone")
        public let routes = ModelKey<Agency, ToMany<Route>>("routes")
    }

    public static let keys = Keys()
}
