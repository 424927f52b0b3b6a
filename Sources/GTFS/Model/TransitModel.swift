import FetchRequest
import Synchronization

/// The database of one feed as an object model: every table an entity with typed attributes named
/// after the GTFS fields, and relationships named after the GTFS id fields without `_id`
/// (`stop_times.trip`, `trips.route`, `routes.agency`, `stops.parent_station`) with their to-many
/// inverses (`trips.stop_times`, `stops.children`, `agency.routes`).
///
/// What `transit list` lists and what its `--predicate` key paths walk. Times (`departure_time`)
/// take `HH:MM:SS` and dates (`start_date`) `YYYY-MM-DD` or `YYYYMMDD`; `route_type`,
/// `location_type`, `pickup_type`, `drop_off_type` and `exception_type` take their numbers or
/// names. The feed's own tables (stop times, shapes, service days) are its, the shared ones are
/// scoped to its key range, so each entity holds exactly that feed's rows.
public enum TransitModel {
    /// How a GTFS time is written, for error messages and for listings (which write it back).
    public static let timeForm = "a GTFS time (HH:MM:SS, may pass 24:00:00)"
    /// How a date is written.
    public static let dateForm = "a date (YYYY-MM-DD or YYYYMMDD)"

    /// The model of `feed`'s rows.
    public static func model(for feed: Feed) -> ObjectModel {
        model(forFeedKey: feed.key)
    }

    /// The model of the rows of the feed whose key is `key` (any key gives the same entities and
    /// checks the same predicates: only table names and key ranges differ). Built once per key
    /// and process.
    public static func model(forFeedKey key: Int) -> ObjectModel {
        models.withLock { models in
            if let model = models[key] { return model }
            let model = makeModel(forFeedKey: key)
            models[key] = model
            return model
        }
    }

    /// `route_type`'s names (`bus`, `tram`, …) beside its numbers.
    static let routeTypes = AttributeType.enumeration(Dictionary(RouteType.basic.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first }))
    /// `location_type`'s names beside its numbers.
    static let locationTypes = AttributeType.enumeration(["stop": 0, "platform": 0, "station": 1, "entrance": 2, "exit": 2, "node": 3,
                                                          "boarding_area": 4])

    /// The models built so far, by feed key.
    private static let models = Mutex<[Int: ObjectModel]>([:])

    private static func makeModel(forFeedKey key: Int) -> ObjectModel {
        let scope = FeedScope(feed: key)
        let entities = feedEntities(scope) + serviceEntities(scope) + tripEntities(scope) + extraEntities(scope)
            + RealtimeModel.entities(feedKey: key, time: time, date: date, inFeed: scope.inFeed)
        return ObjectModel(entities: entities, folding: folding)
    }

    /// How one feed's rows are told apart in the tables all feeds share: by the feed's key range
    /// (`inFeed(column)`) or its key; `tables` names the tables it has to itself.
    struct FeedScope {
        let feed: Int
        let tables: FeedTables
        let inFeed: @Sendable (String) -> @Sendable (String) -> SQLPredicate

        init(feed: Int) {
            self.feed = feed
            tables = FeedTables(feed: feed)
            let keys = FeedKeys.range(of: feed)
            inFeed = { column in { alias in Column(column, of: alias).between(keys.lowerBound, and: keys.upperBound) } }
        }
    }

    /// GTFS times (`07:30:00`, past `24:00:00`) stored as seconds.
    static let time = AttributeType.converted(form: timeForm, read: { GTFSTime.seconds($0).map { .integer(Int64($0)) } })
    /// Dates written `YYYY-MM-DD` or `YYYYMMDD`, stored as `yyyymmdd`.
    static let date = AttributeType.converted(form: dateForm, read: { text in
        let digits = text.count == 10 && text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: 4)] == UInt8(ascii: "-")
            ? text.split(separator: "-").joined() : text
        return ServiceDate(gtfs: digits).map { .integer(Int64($0.year * 10000 + $0.month * 100 + $0.day)) }
    })
    /// `pickup_type` and `drop_off_type`'s names.
    static let boarding = AttributeType.enumeration(["regular": 0, "none": 1, "phone": 2, "driver": 3])
    /// `exception_type`'s names.
    static let exceptions = AttributeType.enumeration(["added": 1, "removed": 2])
    static let weekday = AttributeType.boolean

    /// The feed itself, its agencies, stops and routes.
    private static func feedEntities(_ scope: FeedScope) -> [EntityDescription] {
        typealias A = AttributeDescription
        return [
            EntityDescription(name: "feeds", table: "feeds", attributes: [
                A("name", .text), A("source", .text), A("imported_at", .text), A("time_zone", .text),
                A("first_date", date), A("last_date", date),
            ], relationships: [
                .toMany("agency", "agency", to: "feed"), .toMany("stops", "stops", to: "feed"),
                .toMany("routes", "routes", to: "feed"), .toMany("trips", "trips", to: "feed"),
            ], naturalOrder: ["id"], scope: { alias in Column("id", of: alias) == scope.feed }),

            EntityDescription(name: "agency", table: "agency", attributes: Agency.Columns.all.attributes(), relationships: [
                .toMany("routes", "routes", to: Route.Columns.agency.name), .toOne("feed", "feeds", from: "feed", identifier: "name", required: true),
            ], naturalOrder: ["id"], scope: scope.inFeed("id")),

            EntityDescription(name: "stops", table: "stops", attributes: Stop.Columns.all.attributes(), relationships: [
                .toOne("parent_station", "stops", from: Stop.Columns.parent.name, identifier: Stop.Columns.stopID.name),
                .toMany("children", "stops", to: Stop.Columns.parent.name),
                .toMany("stop_times", "stop_times", to: "stop"),
                .toOne("feed", "feeds", from: "feed", identifier: "name", required: true),
            ], naturalOrder: ["id"], scope: scope.inFeed("id")),

            EntityDescription(name: "routes", table: "routes", attributes: Route.Columns.all.attributes(), relationships: [
                .toOne("agency", "agency", from: Route.Columns.agency.name, identifier: Agency.Columns.agencyID.name),
                .toMany("trips", "trips", to: "route"),
                .toMany("directions", "directions", to: "route"),
                .toOne("feed", "feeds", from: "feed", identifier: "name", required: true),
            ], naturalOrder: ["id"], scope: scope.inFeed("id")),
        ]
    }

    /// When services run: the services, calendar.txt, calendar_dates.txt and the service days expanded from them.
    private static func serviceEntities(_ scope: FeedScope) -> [EntityDescription] {
        typealias A = AttributeDescription
        return [
            EntityDescription(name: "services", table: "services", attributes: [
                A("service_id", .text),
            ], relationships: [
                .toMany("trips", "trips", to: "service"),
                .toMany("calendar", "calendar", to: "service"),
                .toMany("calendar_dates", "calendar_dates", to: "service"),
                .toMany("service_days", "service_days", to: "service"),
                .toOne("feed", "feeds", from: "feed", identifier: "name", required: true),
            ], naturalOrder: ["id"], scope: scope.inFeed("id")),

            EntityDescription(name: "calendar", table: "calendar", attributes: [
                A("service_id", .text, keyPath: "service.service_id"),
                A("monday", weekday), A("tuesday", weekday), A("wednesday", weekday), A("thursday", weekday),
                A("friday", weekday), A("saturday", weekday), A("sunday", weekday), A("start_date", date), A("end_date", date),
            ], relationships: [
                .toOne("service", "services", from: "service", identifier: "service_id", required: true),
            ], naturalOrder: ["service"], scope: scope.inFeed("service")),

            EntityDescription(name: "calendar_dates", table: "calendar_dates", attributes: [
                A("service_id", .text, keyPath: "service.service_id"), A("date", date), A("exception_type", exceptions),
            ], relationships: [
                .toOne("service", "services", from: "service", identifier: "service_id", required: true),
            ], naturalOrder: ["service", "date"], scope: scope.inFeed("service")),

            EntityDescription(name: "service_days", table: scope.tables.serviceDays, attributes: [
                A("service_id", .text, keyPath: "service.service_id"), A("date", date),
            ], relationships: [
                .toOne("service", "services", from: "service", identifier: "service_id", required: true),
            ], naturalOrder: ["date", "service"]),
        ]
    }

    /// The trips, their stop times, frequencies and shapes.
    private static func tripEntities(_ scope: FeedScope) -> [EntityDescription] {
        typealias A = AttributeDescription
        return [
            EntityDescription(name: "trips", table: "trips", attributes: [
                A("route_id", .text, keyPath: "route.route_id"), A("service_id", .text, keyPath: "service.service_id"),
                A("trip_id", .text), A("trip_headsign", .text), A("trip_short_name", .text), A("direction_id", .integer),
                A("block_id", .text), A("shape_id", .text), A("wheelchair_accessible", .integer), A("bikes_allowed", .integer),
                // The direction's name (directions.txt) by the trip's route and direction_id.
                A("direction", .text, computed: { alias in
                    .subquery(Query(table: "directions").select(Column("direction", of: "directions"))
                        .filter(Column("route", of: "directions") == Column("route", of: alias)
                            && Column("direction_id", of: "directions") == Column("direction_id", of: alias)))
                }),
            ], relationships: [
                .toOne("route", "routes", from: "route", identifier: Route.Columns.routeID.name, required: true),
                .toOne("service", "services", from: "service", identifier: "service_id", required: true),
                .toMany("stop_times", "stop_times", to: "trip"),
                .toMany("frequencies", "frequencies", to: "trip"),
                .toMany("shape", "shapes", from: "shape_id", to: "shape_id"),
                .toOne("last_stop", "stops", from: "last_stop", identifier: Stop.Columns.stopID.name),
                .toOne("feed", "feeds", from: "feed", identifier: "name", required: true),
            ], naturalOrder: ["id"], scope: scope.inFeed("id")),

            EntityDescription(name: "stop_times", table: scope.tables.stopTimes, attributes: [
                A("trip_id", .text, keyPath: "trip.trip_id"), A("arrival_time", time, column: "arrival"),
                A("departure_time", time, column: "departure"), A("stop_id", .text, keyPath: "stop.stop_id"),
                A("stop_sequence", .integer), A("stop_headsign", .text), A("pickup_type", boarding), A("drop_off_type", boarding),
                A("timepoint", .integer), A("shape_dist_traveled", .real), A("interpolated", .boolean),
            ], relationships: [
                .toOne("trip", "trips", from: "trip", identifier: "trip_id", required: true),
                .toOne("stop", "stops", from: "stop", identifier: Stop.Columns.stopID.name, required: true),
            ], naturalOrder: ["trip", "stop_sequence"]),

            EntityDescription(name: "frequencies", table: "frequencies", attributes: [
                A("trip_id", .text, keyPath: "trip.trip_id"), A("start_time", time), A("end_time", time),
                A("headway_secs", .integer), A("exact_times", .integer),
            ], relationships: [
                .toOne("trip", "trips", from: "trip", identifier: "trip_id", required: true),
            ], naturalOrder: ["trip", "start_time"], scope: scope.inFeed("trip")),

            EntityDescription(name: "shapes", table: scope.tables.shapes, attributes: [
                A("shape_id", .text), A("shape_pt_lat", .real), A("shape_pt_lon", .real), A("shape_pt_sequence", .integer),
                A("shape_dist_traveled", .real),
            ], naturalOrder: ["shape_id", "shape_pt_sequence"]),
        ]
    }

    /// The optional files: directions.txt (GTFS+) and feed_info.txt.
    private static func extraEntities(_ scope: FeedScope) -> [EntityDescription] {
        typealias A = AttributeDescription
        return [
            EntityDescription(name: "directions", table: "directions", attributes: [
                A("route_id", .text, keyPath: "route.route_id"), A("direction_id", .integer), A("direction", .text),
            ], relationships: [
                .toOne("route", "routes", from: "route", identifier: Route.Columns.routeID.name, required: true),
            ], naturalOrder: ["route", "direction_id"], scope: scope.inFeed("route")),

            EntityDescription(name: "feed_info", table: "feed_info", attributes: [
                A("feed_publisher_name", .text), A("feed_publisher_url", .text), A("feed_lang", .text),
                A("feed_start_date", date), A("feed_end_date", date), A("feed_version", .text),
                A("feed_contact_email", .text), A("feed_contact_url", .text),
            ], relationships: [
                .toOne("feed", "feeds", from: "feed", identifier: "name", required: true),
            ], naturalOrder: ["rowid"], scope: { alias in Column("feed", of: alias) == scope.feed }),
        ]
    }

    /// `[c]`, `[d]`, `[cd]`: `NameNormalizer.fold`, so `[cd]` folds as `transit search` does.
    /// Every `TransitDatabase` connection has it as the SQL function `fetch_fold`.
    public static let folding: @Sendable (String, StringOptions) -> String = { text, options in
        NameNormalizer.fold(text, caseInsensitive: options.contains(.caseInsensitive),
                            diacriticInsensitive: options.contains(.diacriticInsensitive))
    }

    /// The entity names `transit list` takes, in the order its help lists them.
    public static let entityNames = ["agency", "stops", "routes", "trips", "stop_times", "calendar", "calendar_dates",
                                     "frequencies", "shapes", "feed_info", "directions", "services", "service_days", "feeds"]
}
