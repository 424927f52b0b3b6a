import FetchRequest

/// A row of `agency`: an agency of a feed.
public struct Agency: ModelRecord, Sendable, Equatable {
    public static let tableName = "agency"
    public static let entityName = "agency"

    /// The columns of `agency`, each declared once (agency.txt's fields under their own names).
    public enum Columns {
        public static let key = DeclaredColumn<Agency>("id", .integer, primaryKey: true)
        public static let feed = DeclaredColumn<Agency>("feed", .integer, notNull: true)
        public static let agencyID = DeclaredColumn<Agency>.field("agency_id", .text)
        public static let name = DeclaredColumn<Agency>.field("agency_name", .text)
        public static let url = DeclaredColumn<Agency>.field("agency_url", .text)
        public static let timeZone = DeclaredColumn<Agency>.field("agency_timezone", .text)
        public static let language = DeclaredColumn<Agency>.field("agency_lang", .text)
        public static let phone = DeclaredColumn<Agency>.field("agency_phone", .text)
        public static let fareURL = DeclaredColumn<Agency>.field("agency_fare_url", .text)
        public static let email = DeclaredColumn<Agency>.field("agency_email", .text)

        /// Every column, in the table's order.
        static let all = [key, feed, agencyID, name, url, timeZone, language, phone, fareURL, email]
        /// The columns an `Agency` reads.
        static let read = [key, feed, agencyID, name, url, timeZone, language, phone]
    }

    public static let columnNames = Columns.read.names()

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

    private static let columns = (key: RecordColumn(Columns.key), feed: RecordColumn(Columns.feed), agencyID: RecordColumn(Columns.agencyID),
                                  name: RecordColumn(Columns.name), url: RecordColumn(Columns.url),
                                  timeZone: RecordColumn(Columns.timeZone), language: RecordColumn(Columns.language),
                                  phone: RecordColumn(Columns.phone))

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
        public let agencyID = ModelKey<Agency, String?>(Columns.agencyID.name)
        public let name = ModelKey<Agency, String?>(Columns.name.name)
        public let timeZone = ModelKey<Agency, String?>(Columns.timeZone.name)
        public let routes = ModelKey<Agency, ToMany<Route>>("routes")
    }

    public static let keys = Keys()
}
