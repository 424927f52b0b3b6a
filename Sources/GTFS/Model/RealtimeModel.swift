import FetchRequest

/// The realtime tables of one feed as entities of its model (`RealtimeSchema` lays them out):
/// trip updates with their stop time updates, the stop times they change and the departures of
/// NEW trips, vehicle positions, alerts with their texts, periods and informed entities, and
/// what each read held.
///
/// Moments (`scheduled`, `instant`, `timestamp`, `arrival_time`, `start`, `end`) are POSIX
/// seconds; `service_date` and `start_date` dates; `start_time` and `run_start` GTFS times. The
/// tables exist once realtime data was read (`transit realtime`); a fetch from a database
/// without them fails with a missing table, which readers treat as "no realtime data".
///
/// `trip_id`, `route_id` and `stop_id` are what the message said; the relationships `trip`,
/// `route` and `stop` are the timetable's rows they were matched to (none when unmatched), so
/// `trip_id == 'T1'` and `trip == 'T1'` differ for a message that names a trip the feed lacks.
enum RealtimeModel {
    private typealias A = AttributeDescription

    /// The realtime entities of the feed whose key is `key`; `time` and `date` are the model's
    /// GTFS time and date types, `inFeed` its key-range scope.
    static func entities(feedKey key: Int, time: AttributeType, date: AttributeType,
                         inFeed: @escaping @Sendable (String) -> @Sendable (String) -> SQLPredicate) -> [EntityDescription] {
        let feed = RealtimeScope(key: key)
        return [
            sources(feed), feeds(feed),
            tripUpdates(feed, time: time, date: date), stopTimeUpdates(feed), stopTimes(time: time, date: date, inFeed: inFeed),
            addedDepartures(feed, date: date),
            vehicles(feed, date: date),
            alerts(feed), alertTexts(feed), alertPeriods(feed), alertEntities(feed),
        ]
    }

    /// What the entities of one feed share: the `feed` relationship and the scopes to its rows.
    private struct RealtimeScope {
        let key: Int
        let relationship = RelationshipDescription.toOne("feed", "feeds", from: "feed", identifier: "name", required: true)
        /// Rows of a table with a `feed` column.
        let rows: @Sendable (String) -> SQLPredicate

        init(key: Int) {
            self.key = key
            rows = { alias in Column("feed", of: alias) == key }
        }

        /// Rows of a child table whose parent (`column` holding a key of `parent`) is the feed's.
        func childRows(_ column: String, of parent: String) -> @Sendable (String) -> SQLPredicate {
            let key = key
            return { alias in Column(column, of: alias).isIn(Query(table: parent).select(Column("id")).filter(Column("feed") == key)) }
        }
    }

    // MARK: Reads

    /// What each read of the feed's realtime data held.
    private static func sources(_ feed: RealtimeScope) -> EntityDescription {
        EntityDescription(name: "realtime_sources", table: "realtime_sources", attributes: [
            A("position", .integer), A("source", .text), A("timestamp", .integer), A("read_at", .integer),
            A("trip_updates", .integer), A("vehicles", .integer), A("alerts", .integer),
        ], relationships: [feed.relationship], naturalOrder: ["feed", "position"], scope: feed.rows)
    }

    /// The feed's realtime state: when its data was read, the delays it holds, its added departures.
    private static func feeds(_ feed: RealtimeScope) -> EntityDescription {
        EntityDescription(name: "realtime_feeds", table: "realtime_feeds", attributes: [
            A("timestamp", .integer), A("latest_delay", .integer), A("earliest_delay", .integer), A("added_departures", .integer),
        ], relationships: [feed.relationship], naturalOrder: ["feed"], scope: feed.rows)
    }

    // MARK: Trip updates

    /// A trip update as the message gave it.
    private static func tripUpdates(_ feed: RealtimeScope, time: AttributeType, date: AttributeType) -> EntityDescription {
        let relationships = AttributeType.enumeration(["scheduled": 0, "added": 1, "unscheduled": 2, "canceled": 3, "replacement": 5,
                                                       "duplicated": 6, "deleted": 7, "new": 8])
        return EntityDescription(name: "realtime_trip_updates", table: "realtime_trip_updates", attributes: [
            A("entity_id", .text), A("trip_id", .text), A("route_id", .text), A("direction_id", .integer),
            A("start_date", date), A("start_time", time), A("service_date", date), A("schedule_relationship", relationships, column: "relationship"),
            A("delay", .integer), A("timestamp", .integer), A("vehicle_id", .text), A("vehicle_label", .text),
        ], relationships: [
            .toOne("trip", "trips", from: "trip", identifier: "trip_id"),
            .toMany("stop_time_updates", "realtime_stop_time_updates", to: "trip_update"),
            .toMany("added_departures", "realtime_added_departures", to: "trip_update"),
            feed.relationship,
        ], naturalOrder: ["id"], scope: feed.rows)
    }

    /// A stop time update of a trip update, as the message gave it.
    private static func stopTimeUpdates(_ feed: RealtimeScope) -> EntityDescription {
        let relationships = AttributeType.enumeration(["scheduled": 0, "skipped": 1, "no_data": 2, "unscheduled": 3])
        return EntityDescription(name: "realtime_stop_time_updates", table: "realtime_stop_time_updates", attributes: [
            A("position", .integer), A("stop_sequence", .integer), A("stop_id", .text),
            A("arrival_time", .integer), A("arrival_delay", .integer), A("departure_time", .integer), A("departure_delay", .integer),
            A("schedule_relationship", relationships, column: "relationship"),
        ], relationships: [
            .toOne("trip_update", "realtime_trip_updates", from: "trip_update", identifier: "entity_id", required: true),
            .toOne("stop", "stops", from: "stop", identifier: "stop_id"),
        ], naturalOrder: ["trip_update", "position"], scope: feed.childRows("trip_update", of: "realtime_trip_updates"))
    }

    /// What realtime data makes of the timetable: per changed stop time, its delay or that it is skipped.
    private static func stopTimes(time: AttributeType, date: AttributeType,
                                  inFeed: @escaping @Sendable (String) -> @Sendable (String) -> SQLPredicate) -> EntityDescription {
        EntityDescription(name: "realtime_stop_times", table: "realtime_stop_times", attributes: [
            A("scheduled", .integer), A("stop_sequence", .integer), A("service_date", date), A("run_start", time),
            A("delay", .integer), A("skipped", .boolean),
        ], relationships: [
            .toOne("stop", "stops", from: "stop", identifier: "stop_id", required: true),
            .toOne("trip", "trips", from: "trip", identifier: "trip_id", required: true),
        ], naturalOrder: ["stop", "scheduled", "trip", "stop_sequence"], scope: inFeed("stop"))
    }

    /// The departures of NEW trips, which the timetable lacks.
    private static func addedDepartures(_ feed: RealtimeScope, date: AttributeType) -> EntityDescription {
        EntityDescription(name: "realtime_added_departures", table: "realtime_added_departures", attributes: [
            A("instant", .integer), A("service_date", date), A("trip_id", .text), A("route_id", .text), A("headsign", .text),
        ], relationships: [
            .toOne("stop", "stops", from: "stop", identifier: "stop_id", required: true),
            .toOne("route", "routes", from: "route", identifier: "route_id"),
            .toOne("trip_update", "realtime_trip_updates", from: "trip_update", identifier: "entity_id", required: true),
            feed.relationship,
        ], naturalOrder: ["id"], scope: feed.rows)
    }

    // MARK: Vehicle positions

    /// A vehicle position.
    private static func vehicles(_ feed: RealtimeScope, date: AttributeType) -> EntityDescription {
        let statuses = AttributeType.enumeration(["incoming_at": 0, "stopped_at": 1, "in_transit_to": 2])
        return EntityDescription(name: "realtime_vehicles", table: "realtime_vehicles", attributes: [
            A("entity_id", .text), A("vehicle_id", .text), A("label", .text), A("trip_id", .text), A("route_id", .text),
            A("start_date", date), A("lat", .real), A("lon", .real), A("bearing", .real), A("speed", .real),
            A("stop_id", .text), A("stop_sequence", .integer), A("current_status", statuses, column: "status"), A("timestamp", .integer),
        ], relationships: [
            .toOne("trip", "trips", from: "trip", identifier: "trip_id"),
            feed.relationship,
        ], naturalOrder: ["id"], scope: feed.rows)
    }

    // MARK: Alerts

    /// A service alert, its cause and effect.
    private static func alerts(_ feed: RealtimeScope) -> EntityDescription {
        EntityDescription(name: "realtime_alerts", table: "realtime_alerts", attributes: [
            A("entity_id", .text), A("cause", .enumeration(RealtimeModel.names(AlertListing.causes))),
            A("effect", .enumeration(RealtimeModel.names(AlertListing.effects))),
        ], relationships: [
            .toMany("texts", "realtime_alert_texts", to: "alert"),
            .toMany("active_periods", "realtime_alert_periods", to: "alert"),
            .toMany("informed_entities", "realtime_alert_entities", to: "alert"),
            feed.relationship,
        ], naturalOrder: ["id"], scope: feed.rows)
    }

    /// An alert's texts (header, description, url), one per language.
    private static func alertTexts(_ feed: RealtimeScope) -> EntityDescription {
        EntityDescription(name: "realtime_alert_texts", table: "realtime_alert_texts", attributes: [
            A("field", .text), A("position", .integer), A("language", .text), A("text", .text),
        ], relationships: [
            .toOne("alert", "realtime_alerts", from: "alert", identifier: "entity_id", required: true),
        ], naturalOrder: ["alert", "field", "position"], scope: feed.childRows("alert", of: "realtime_alerts"))
    }

    /// When an alert is active.
    private static func alertPeriods(_ feed: RealtimeScope) -> EntityDescription {
        EntityDescription(name: "realtime_alert_periods", table: "realtime_alert_periods", attributes: [
            A("start", .integer), A("end", .integer),
        ], relationships: [
            .toOne("alert", "realtime_alerts", from: "alert", identifier: "entity_id", required: true),
        ], naturalOrder: ["alert", "rowid"], scope: feed.childRows("alert", of: "realtime_alerts"))
    }

    /// What an alert concerns: agencies, routes, route types, trips, stops.
    private static func alertEntities(_ feed: RealtimeScope) -> EntityDescription {
        EntityDescription(name: "realtime_alert_entities", table: "realtime_alert_entities", attributes: [
            A("agency_id", .text), A("route_id", .text), A("route_type", .integer), A("trip_id", .text), A("stop_id", .text),
            A("direction_id", .integer),
        ], relationships: [
            .toOne("alert", "realtime_alerts", from: "alert", identifier: "entity_id", required: true),
        ], naturalOrder: ["alert", "rowid"], scope: feed.childRows("alert", of: "realtime_alerts"))
    }

    /// Enumeration names (lower case, as predicates write them) for the codes of `names`.
    static func names(_ names: [Int: String]) -> [String: Int] {
        Dictionary(names.map { ($0.value.lowercased(), $0.key) }, uniquingKeysWith: { first, _ in first })
    }
}
