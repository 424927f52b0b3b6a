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

    /// The models built so far, by feed key.
    private static let models = Mutex<[Int: ObjectModel]>([:])

    private static func makeModel(forFeedKey key: Int) -> ObjectModel {
        let tables = FeedTables(feed: key)
        let keys = FeedKeys.range(of: key)
        let inFeed: @Sendable (String) -> @Sendable (String) -> SQLPredicate = { column in
            { alias in Column(column, of: alias).between(keys.lowerBound, and: keys.upperBound) }
        }
        let feedKey = key
        let time = AttributeType.converted(form: timeForm, read: { GTFSTime.seconds($0).map { .integer(Int64($0)) } })
        let date = AttributeType.converted(form: dateForm, read: { text in
            let digits = text.count == 10 && text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: 4)] == UInt8(ascii: "-")
                ? text.split(separator: "-").joined() : text
            return ServiceDate(gtfs: digits).map { .integer(Int64($0.year * 10000 + $0.month * 100 + $0.day)) }
        })
        let routeTypes = AttributeType.enumeration(Dictionary(RouteType.basic.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first }))
        let locationTypes = AttributeType.enumeration(["stop": 0, "platform": 0, "station": 1, "entrance": 2, "exit": 2, "node": 3, "boarding_area": 4])
        let boarding = AttributeType.enumeration(["regular": 0, "none": 1, "phone": 2, "driver": 3])
        let exceptions = AttributeType.enumeration(["added": 1, "removed": 2])
        let weekday = AttributeType.boolean
        typealias A = AttributeDescription
        typealias R = RelationshipDescription

        let entities = [
            EntityDescription(name: "feeds", table: "feeds", attributes: [
                A("name", .text), A("source", .text), A("imported_at", .text), A("time_zone", .text),
                A("first_date", date), A("last_date", date),
            ], relationships: [
                .toMany("agency", "agency", to: "feed"), .toMany("stops", "stops", to: "feed"),
                .toMany("routes", "routes", to: "feed"), .toMany("trips", "trips", to: "feed"),
            ], naturalOrder: ["id"], scope: { alias in Column("id", of: alias) == feedKey }),

            EntityDescription(name: "agency", table: "agency", attributes: [
                A("agency_id", .text), A("agency_name", .text), A("agency_url", .text), A("agency_timezone", .text),
                A("agency_lang", .text), A("agency_phone", .text), A("agency_fare_url", .text), A("agency_email", .text),
            ], relationships: [
                .toMany("routes", "routes", to: "agency"), .toOne("feed", "feeds", from: "feed", identifier: "name", required: true),
            ], naturalOrder: ["id"], scope: inFeed("id")),

            EntityDescription(name: "stops", table: "stops", attributes: [
                A("stop_id", .text), A("stop_code", .text), A("stop_name", .text), A("stop_desc", .text),
                A("stop_lat", .real), A("stop_lon", .real), A("zone_id", .text), A("stop_url", .text),
                A("location_type", locationTypes), A("parent_station", .text, keyPath: "parent_station.stop_id"),
                A("stop_timezone", .text), A("wheelchair_boarding", .integer), A("level_id", .text), A("platform_code", .text),
            ], relationships: [
                .toOne("parent_station", "stops", from: "parent", identifier: "stop_id"),
                .toMany("children", "stops", to: "parent"),
                .toMany("stop_times", "stop_times", to: "stop"),
                .toOne("feed", "feeds", from: "feed", identifier: "name", required: true),
            ], naturalOrder: ["id"], scope: inFeed("id")),

            EntityDescription(name: "routes", table: "routes", attributes: [
                A("route_id", .text), A("agency_id", .text, keyPath: "agency.agency_id"), A("route_short_name", .text),
                A("route_long_name", .text), A("route_desc", .text), A("route_type", routeTypes), A("route_url", .text),
                A("route_color", .text), A("route_text_color", .text), A("route_sort_order", .integer),
            ], relationships: [
                .toOne("agency", "agency", from: "agency", identifier: "agency_id"),
                .toMany("trips", "trips", to: "route"),
                .toMany("directions", "directions", to: "route"),
                .toOne("feed", "feeds", from: "feed", identifier: "name", required: true),
            ], naturalOrder: ["id"], scope: inFeed("id")),

            EntityDescription(name: "services", table: "services", attributes: [
                A("service_id", .text),
            ], relationships: [
                .toMany("trips", "trips", to: "service"),
                .toMany("calendar", "calendar", to: "service"),
                .toMany("calendar_dates", "calendar_dates", to: "service"),
                .toMany("service_days", "service_days", to: "service"),
                .toOne("feed", "feeds", from: "feed", identifier: "name", required: true),
            ], naturalOrder: ["id"], scope: inFeed("id")),

            EntityDescription(name: "calendar", table: "calendar", attributes: [
                A("service_id", .text, keyPath: "service.service_id"),
                A("monday", weekday), A("tuesday", weekday), A("wednesday", weekday), A("thursday", weekday),
                A("friday", weekday), A("saturday", weekday), A("sunday", weekday), A("start_date", date), A("end_date", date),
            ], relationships: [
                .toOne("service", "services", from: "service", identifier: "service_id", required: true),
            ], naturalOrder: ["service"], scope: inFeed("service")),

            EntityDescription(name: "calendar_dates", table: "calendar_dates", attributes: [
                A("service_id", .text, keyPath: "service.service_id"), A("date", date), A("exception_type", exceptions),
            ], relationships: [
                .toOne("service", "services", from: "service", identifier: "service_id", required: true),
            ], naturalOrder: ["service", "date"], scope: inFeed("service")),

            EntityDescription(name: "service_days", table: tables.serviceDays, attributes: [
                A("service_id", .text, keyPath: "service.service_id"), A("date", date),
            ], relationships: [
                .toOne("service", "services", from: "service", identifier: "service_id", required: true),
            ], naturalOrder: ["date", "service"]),

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
                .toOne("route", "routes", from: "route", identifier: "route_id", required: true),
                .toOne("service", "services", from: "service", identifier: "service_id", required: true),
                .toMany("stop_times", "stop_times", to: "trip"),
                .toMany("frequencies", "frequencies", to: "trip"),
                .toMany("shape", "shapes", from: "shape_id", to: "shape_id"),
                .toOne("last_stop", "stops", from: "last_stop", identifier: "stop_id"),
                .toOne("feed", "feeds", from: "feed", identifier: "name", required: true),
            ], naturalOrder: ["id"], scope: inFeed("id")),

            EntityDescription(name: "stop_times", table: tables.stopTimes, attributes: [
                A("trip_id", .text, keyPath: "trip.trip_id"), A("arrival_time", time, column: "arrival"),
                A("departure_time", time, column: "departure"), A("stop_id", .text, keyPath: "stop.stop_id"),
                A("stop_sequence", .integer), A("stop_headsign", .text), A("pickup_type", boarding), A("drop_off_type", boarding),
                A("timepoint", .integer), A("shape_dist_traveled", .real), A("interpolated", .boolean),
            ], relationships: [
                .toOne("trip", "trips", from: "trip", identifier: "trip_id", required: true),
                .toOne("stop", "stops", from: "stop", identifier: "stop_id", required: true),
            ], naturalOrder: ["trip", "stop_sequence"]),

            EntityDescription(name: "frequencies", table: "frequencies", attributes: [
                A("trip_id", .text, keyPath: "trip.trip_id"), A("start_time", time), A("end_time", time),
                A("headway_secs", .integer), A("exact_times", .integer),
            ], relationships: [
                .toOne("trip", "trips", from: "trip", identifier: "trip_id", required: true),
            ], naturalOrder: ["trip", "start_time"], scope: inFeed("trip")),

            EntityDescription(name: "shapes", table: tables.shapes, attributes: [
                A("shape_id", .text), A("shape_pt_lat", .real), A("shape_pt_lon", .real), A("shape_pt_sequence", .integer),
                A("shape_dist_traveled", .real),
            ], naturalOrder: ["shape_id", "shape_pt_sequence"]),

            EntityDescription(name: "directions", table: "directions", attributes: [
                A("route_id", .text, keyPath: "route.route_id"), A("direction_id", .integer), A("direction", .text),
            ], relationships: [
                .toOne("route", "routes", from: "route", identifier: "route_id", required: true),
            ], naturalOrder: ["route", "direction_id"], scope: inFeed("route")),

            EntityDescription(name: "feed_info", table: "feed_info", attributes: [
                A("feed_publisher_name", .text), A("feed_publisher_url", .text), A("feed_lang", .text),
                A("feed_start_date", date), A("feed_end_date", date), A("feed_version", .text),
                A("feed_contact_email", .text), A("feed_contact_url", .text),
            ], relationships: [
                .toOne("feed", "feeds", from: "feed", identifier: "name", required: true),
            ], naturalOrder: ["rowid"], scope: { alias in Column("feed", of: alias) == feedKey }),
        ] + RealtimeModel.entities(feedKey: key, time: time, date: date, inFeed: inFeed)
        return ObjectModel(entities: entities, folding: folding)
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
