import FetchRequest

/// The database layout `transit import` writes and the query commands read: any number of feeds in
/// one file.
///
/// Tables are named after the GTFS files so a `sqlite3` user finds them. Inside the database every
/// row has an integer key, and references between tables use those keys (`stop_times.stop` is a
/// `stops.id`); the feed's own string ids stay in their own columns (`stops.stop_id`), unique per
/// feed. Times are integer seconds after the start of the service day; dates are `yyyymmdd`.
///
/// Several feeds: `feeds` lists them. Each feed's keys lie in a block of their own
/// (`FeedKeys`: feed 3's stops are 3·2³² + 1, 3·2³² + 2, …), so the feed of any key is known
/// without a lookup and a feed's rows are one key range in every table. The small tables (stops,
/// routes, trips, …) are shared by all feeds, with a `feed` column, so `nearby` and `search` read
/// one index whatever the number of feeds. The two big ones are one table per feed,
/// `stop_times_<feed>` and `service_days_<feed>`: adding a feed fills fresh tables and builds their
/// indexes in one sort, as fast as into an empty database, and removing one drops them.
public enum Schema {
    /// Bumped whenever the layout changes. Version 1 held exactly one feed; version 2 lacked the
    /// trips' last stop and `directions`; version 3 searched names in `stop_words` (word ranges)
    /// rather than `stop_name_prefixes`; version 4 lacked the stop times' `service` (`SchemaUpgrade`
    /// brings 2, 3 and 4 up in place).
    public static let version = 5

    typealias C = TableDefinition.ColumnDefinition

    /// What the database records about itself (`MetadataEntry`).
    static let metadata = TableDefinition(MetadataEntry.tableName, columns: [
        MetadataEntry.definition(.key, .text, primaryKey: true), MetadataEntry.definition(.value, .text),
    ])

    /// One row per feed: its name, where it came from, and what the queries need to know of it
    /// without counting (time zone, the largest time, whether it has frequencies, row counts).
    static let feeds = TableDefinition("feeds", columns: [
        C("id", .integer, primaryKey: true), C("name", .text, notNull: true), C("source", .text),
        C("imported_at", .text), C("time_zone", .text, notNull: true), C("agencies", .text),
        C("largest_time", .integer, notNull: true, default: 0), C("has_frequencies", .integer, notNull: true, default: 0),
        C("stops", .integer), C("stop_times", .integer), C("trips", .integer), C("routes", .integer),
        C("first_date", .integer), C("last_date", .integer),
    ])

    static let agency = TableDefinition(of: Agency.self, columns: Agency.Columns.all)

    static let stops = TableDefinition(of: Stop.self, columns: Stop.Columns.all)

    static let routes = TableDefinition(of: Route.self, columns: Route.Columns.all)

    static let services = TableDefinition("services", columns: [
        C("id", .integer, primaryKey: true), C("feed", .integer, notNull: true), C("service_id", .text, notNull: true),
    ])

    static let calendar = TableDefinition("calendar", columns: [
        C("service", .integer, primaryKey: true), C("monday", .integer), C("tuesday", .integer),
        C("wednesday", .integer), C("thursday", .integer), C("friday", .integer), C("saturday", .integer),
        C("sunday", .integer), C("start_date", .integer), C("end_date", .integer),
    ])

    static let calendarDates = TableDefinition("calendar_dates", columns: [
        C("service", .integer), C("date", .integer), C("exception_type", .integer),
    ], primaryKey: ["service", "date"], withoutRowID: true)

    static let trips = TableDefinition("trips", columns: [
        C("id", .integer, primaryKey: true), C("feed", .integer, notNull: true), C("trip_id", .text, notNull: true),
        C("route", .integer, notNull: true), C("service", .integer, notNull: true), C("trip_headsign", .text),
        C("trip_short_name", .text), C("direction_id", .integer), C("block_id", .text), C("shape_id", .text),
        C("wheelchair_accessible", .integer), C("bikes_allowed", .integer),
    ] + [tripEnds.sequence, tripEnds.stop])

    /// Where each trip ends, from its stop times, the last columns of `trips` (written after the
    /// stop times are loaded): "not the trip's last stop" and "the last stop's name" (a
    /// departure's headsign when the feed gives none) without a lookup in stop_times per departure.
    static let tripEnds = (sequence: C("last_stop_sequence", .integer), stop: C("last_stop", .integer))

    /// `directions.txt` (GTFS+, the Bay Area's extension, also found elsewhere): a name for each
    /// direction of a route ("North", "Inbound", "Clockwise").
    static let directions = TableDefinition("directions", columns: [
        C("route", .integer), C("direction_id", .integer), C("direction", .text, notNull: true),
    ], primaryKey: ["route", "direction_id"], withoutRowID: true)

    static let frequencies = TableDefinition("frequencies", columns: [
        C("trip", .integer, notNull: true), C("start_time", .integer), C("end_time", .integer),
        C("headway_secs", .integer), C("exact_times", .integer),
    ])

    static let feedInfo = TableDefinition("feed_info", columns: [
        C("feed", .integer, notNull: true), C("feed_publisher_name", .text), C("feed_publisher_url", .text), C("feed_lang", .text),
        C("feed_start_date", .integer), C("feed_end_date", .integer), C("feed_version", .text),
        C("feed_contact_email", .text), C("feed_contact_url", .text),
    ])

    /// The search index of stop names (`StopNamePrefixes`): each prefix of each word of a stop's
    /// normalized name, the stop whose name it is (`stop`), the stop a rider is shown for it
    /// (`shown`: in the stops listing the station of a platform or entrance, else the stop itself)
    /// with that stop's normalized name and stop_id, and the listings the row serves (`shown_in`).
    /// Keyed so that one prefix's rows are in the order a search lists them.
    static let stopNamePrefixes = TableDefinition(StopNamePrefix.tableName, columns: [
        StopNamePrefix.definition(.prefix, .text), StopNamePrefix.definition(.shownName, .text),
        StopNamePrefix.definition(.shownStopID, .text), StopNamePrefix.definition(.shown, .integer),
        StopNamePrefix.definition(.stop, .integer), StopNamePrefix.definition(.shownIn, .integer, notNull: true),
    ], primaryKey: [StopNamePrefix.Columns.prefix, .shownName, .shownStopID, .shown, .stop].map(\.rawValue), withoutRowID: true)

    /// Schema 3's search index: the words of each stop's name, searched as ranges.
    static let version3StopWords = TableDefinition("stop_words", columns: [
        .init("word", .text), .init("stop", .integer), .init("listed_as", .integer, notNull: true),
    ], primaryKey: ["word", "stop"], withoutRowID: true)

    /// How each feed imported from a URL was last downloaded: the URL and the validators
    /// (`ETag`, `Last-Modified`) that let the next import skip an unchanged feed.
    static let feedDownloads = TableDefinition(DownloadRecord.tableName, columns: [
        DownloadRecord.definition(.feed, .integer, primaryKey: true), DownloadRecord.definition(.url, .text, notNull: true),
        DownloadRecord.definition(.etag, .text), DownloadRecord.definition(.lastModified, .text),
    ])

    /// The tables every feed shares, in the order they are created.
    static let sharedTables = [metadata, feeds, feedDownloads, agency, stops, routes, services, calendar, calendarDates,
                               trips, frequencies, feedInfo, stopNamePrefixes, directions]

    /// Built after the rows of a new database are loaded (faster than maintaining them row by row);
    /// a feed added to an existing database updates them as it inserts.
    static let sharedIndexes = [feedsByName, stopsByStopID, stopsByLocation, stopsByNormalizedName, stopsByParent, routesByRouteID,
                                servicesByServiceID, tripsByTripID, tripsByService, tripsByRoute, frequenciesByTrip, feedInfoByFeed]

    static let feedsByName = IndexDefinition("feeds_by_name", on: feeds.name, columns: ["name"], unique: true)
    static let stopsByStopID = IndexDefinition("stops_by_stop_id", on: stops.name, columns: [Stop.Columns.stopID, Stop.Columns.feed].names(), unique: true)
    static let stopsByLocation = IndexDefinition("stops_by_location", on: stops.name, columns: [Stop.Columns.longitude, Stop.Columns.latitude].names())
    static let stopsByNormalizedName = IndexDefinition("stops_by_normalized_name", on: stops.name, columns: [Stop.Columns.normalizedName.name])
    /// Partial: it serves "the platforms of this station" and is never taken for `parent IS NULL`.
    static let stopsByParent = IndexDefinition("stops_by_parent", on: stops.name, columns: [Stop.Columns.parent.name],
                                               onlyWhereNotNull: Stop.Columns.parent.name)
    static let routesByRouteID = IndexDefinition("routes_by_route_id", on: routes.name, columns: [Route.Columns.routeID, Route.Columns.feed].names(),
                                                 unique: true)
    static let servicesByServiceID = IndexDefinition("services_by_service_id", on: services.name, columns: ["service_id", "feed"], unique: true)
    static let tripsByTripID = IndexDefinition("trips_by_trip_id", on: trips.name, columns: ["trip_id", "feed"], unique: true)
    /// "The trips that run on a date": service_days gives the services, this gives their trips.
    static let tripsByService = IndexDefinition("trips_by_service", on: trips.name, columns: ["service"])
    /// "The trips of a route" (`transit route`): one range.
    static let tripsByRoute = IndexDefinition("trips_by_route", on: trips.name, columns: ["route"])
    static let frequenciesByTrip = IndexDefinition("frequencies_by_trip", on: frequencies.name, columns: ["trip"])
    static let feedInfoByFeed = IndexDefinition("feed_info_by_feed", on: feedInfo.name, columns: ["feed"])

    /// The shared tables that are no entity of the model, each with the column holding keys of a
    /// feed's block, by which removing a feed deletes their rows (one range).
    /// `stop_name_prefixes` has no index leading with the stop: removing a feed reads the whole
    /// (small) search index once.
    static let feedKeyedTables = [(table: stopNamePrefixes, column: "stop")]

    /// The tables of one feed alone, named after it (`stop_times_3`).
    static func feedTables(_ feed: Int) -> [TableDefinition] {
        [stopTimes(feed), serviceDays(feed), shapes(feed), transfers(feed), planner(feed)]
    }

    /// The columns of a feed's `transfers_<feed>`: transfers.txt with its ids as keys.
    enum TransferColumn: String, CaseIterable {
        case fromStop = "from_stop", toStop = "to_stop", fromRoute = "from_route", toRoute = "to_route"
        case fromTrip = "from_trip", toTrip = "to_trip", transferType = "transfer_type", minimumTime = "min_transfer_time"
    }

    /// transfers.txt of one feed, ids resolved to keys (NULL where the row names none).
    static func transfers(_ feed: Int) -> TableDefinition {
        TableDefinition(FeedTables(feed: feed).transfers, columns: TransferColumn.allCases.map { column in
            C(column.rawValue, .integer, notNull: column == .transferType)
        })
    }

    /// The columns of a feed's `planner_<feed>`: an id (0: the stop index; 1…: the patterns;
    /// below 0: the lower bounds of `PlannerBounds`) and its BLOB.
    enum PlannerColumn: String, CaseIterable {
        case id, data
    }

    /// The journey planner's timetable of one feed (`PlannerTimetableBuilder`): row 0 its stop
    /// index, rows 1… its patterns, each one BLOB.
    static func planner(_ feed: Int) -> TableDefinition {
        TableDefinition(FeedTables(feed: feed).planner, columns: [C(PlannerColumn.id.rawValue, .integer, primaryKey: true),
                                                                  C(PlannerColumn.data.rawValue, .blob, notNull: true)])
    }

    /// The indexes of one feed's own tables.
    static func feedIndexes(_ feed: Int) -> [IndexDefinition] {
        [stopTimesByStopDeparture(feed)]
    }

    /// With the table's key (trip, stop_sequence) this index covers what departures read, the
    /// service included: a stop time whose trip does not run that day is passed over inside the
    /// index, without looking its trip up.
    static func stopTimesByStopDeparture(_ feed: Int) -> IndexDefinition {
        IndexDefinition("stop_times_\(feed)_by_stop_departure", on: FeedTables(feed: feed).stopTimes,
                        columns: ["stop", "departure", "pickup_type", stopTimeService.name])
    }

    /// Each stop time's trip's service, copied from `trips` at import (schema 5) as its number
    /// within the feed (the key minus `FeedKeys.base`: one or two bytes a row where a key takes
    /// six): the one column of `stop_times_<feed>` that is no field of stop_times.txt.
    static let stopTimeService = C("service_number", .integer)

    /// Keyed by (trip, stop_sequence) and stored in that order (`WITHOUT ROWID`), so a trip's
    /// stops are one range and duplicate rows are refused by the key.
    static func stopTimes(_ feed: Int) -> TableDefinition {
        TableDefinition(FeedTables(feed: feed).stopTimes, columns: [
            C("trip", .integer), C("stop_sequence", .integer), C("stop", .integer, notNull: true),
            C("arrival", .integer), C("departure", .integer), C("interpolated", .integer, notNull: true, default: 0),
            C("stop_headsign", .text), C("pickup_type", .integer), C("drop_off_type", .integer),
            C("timepoint", .integer), C("shape_dist_traveled", .real), stopTimeService,
        ], primaryKey: ["trip", "stop_sequence"], withoutRowID: true)
    }

    /// The points of each shape of `shapes.txt`, by (shape_id, shape_pt_sequence): a shape is one
    /// range, in order. Per feed, as shapes can have millions of points.
    static func shapes(_ feed: Int) -> TableDefinition {
        TableDefinition(FeedTables(feed: feed).shapes, columns: [
            C("shape_id", .text), C("shape_pt_sequence", .integer), C("shape_pt_lat", .real, notNull: true),
            C("shape_pt_lon", .real, notNull: true), C("shape_dist_traveled", .real),
        ], primaryKey: ["shape_id", "shape_pt_sequence"], withoutRowID: true)
    }

    /// Every (date, service) that runs, expanded from calendar and calendar_dates at import time,
    /// so "which services run on D" is one index range.
    static func serviceDays(_ feed: Int) -> TableDefinition {
        TableDefinition(FeedTables(feed: feed).serviceDays, columns: [
            C("date", .integer), C("service", .integer),
        ], primaryKey: ["date", "service"], withoutRowID: true)
    }
}

/// The names of the tables one feed has to itself.
public struct FeedTables: Sendable, Equatable {
    /// The feed's key (`feeds.id`).
    public let feed: Int
    public init(feed: Int) { self.feed = feed }
    /// `stop_times_<feed>`.
    public var stopTimes: String { "stop_times_\(feed)" }
    /// `service_days_<feed>`.
    public var serviceDays: String { "service_days_\(feed)" }
    /// `shapes_<feed>`.
    public var shapes: String { "shapes_\(feed)" }
    /// The feed's transfers.txt.
    public var transfers: String { "transfers_\(feed)" }
    /// The journey planner's packed timetable of the feed.
    public var planner: String { "planner_\(feed)" }
}

/// Each feed's keys are a block of their own: feed k owns [k·2³², (k + 1)·2³²) in every table, so a
/// key tells its feed (`feed(of:)`) and a feed's rows are one range (`range(of:)`).
public enum FeedKeys {
    /// Bits of a key below the feed's number.
    public static let shift = 32

    /// The first key of feed `feed` (its rows are numbered from here + 1).
    public static func base(of feed: Int) -> Int { feed << shift }

    /// Every key feed `feed` can own.
    public static func range(of feed: Int) -> ClosedRange<Int> { base(of: feed)...(base(of: feed + 1) - 1) }

    /// The feed a key belongs to.
    public static func feed(of key: Int) -> Int { key >> shift }
}
