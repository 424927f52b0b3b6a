import FetchRequest

/// Where GTFS-Realtime data read by `transit realtime` is kept: the latest full dataset of each
/// feed, replaced whole at every read (one write transaction), beside the timetable.
///
/// The tables are created by the first realtime read (`CREATE TABLE IF NOT EXISTS`), so databases
/// that never saw realtime data need no upgrade, and readers treat a missing table as "no realtime
/// data". Rows carry the feed key; trip updates and vehicles carry the matched trip's key (NULL
/// when the trip is not in the feed), stop time updates their trip update's key.
public enum RealtimeSchema {
    typealias C = TableDefinition.ColumnDefinition

    /// One row per source of the last read of a feed: its header timestamp and what it held.
    static let sources = TableDefinition("realtime_sources", columns: [
        C("feed", .integer, notNull: true), C("position", .integer, notNull: true), C("source", .text, notNull: true),
        C("timestamp", .integer), C("read_at", .integer, notNull: true),
        C("trip_updates", .integer, notNull: true), C("vehicles", .integer, notNull: true), C("alerts", .integer, notNull: true),
    ], primaryKey: ["feed", "position"], withoutRowID: true)

    /// Trip updates: the trip run they apply to (`trip` and `service_date`, from rule 1), or what
    /// the descriptor said when no trip of the feed matched.
    static let tripUpdates = TableDefinition("realtime_trip_updates", columns: [
        C("id", .integer, primaryKey: true), C("feed", .integer, notNull: true), C("entity_id", .text),
        C("trip", .integer), C("service_date", .integer), C("trip_id", .text), C("route_id", .text), C("direction_id", .integer),
        C("start_date", .integer), C("start_time", .integer), C("relationship", .integer, notNull: true, default: 0),
        C("delay", .integer), C("timestamp", .integer), C("vehicle_id", .text), C("vehicle_label", .text),
    ])

    /// The stop time updates of each trip update, in message order.
    static let stopTimeUpdates = TableDefinition("realtime_stop_time_updates", columns: [
        C("trip_update", .integer, notNull: true), C("position", .integer, notNull: true),
        C("stop_sequence", .integer), C("stop_id", .text), C("stop", .integer),
        C("arrival_time", .integer), C("arrival_delay", .integer), C("departure_time", .integer), C("departure_delay", .integer),
        C("relationship", .integer, notNull: true, default: 0),
    ], primaryKey: ["trip_update", "position"], withoutRowID: true)

    /// Vehicle positions (latitude and longitude may be absent: the New York subway sends none).
    static let vehicles = TableDefinition("realtime_vehicles", columns: [
        C("id", .integer, primaryKey: true), C("feed", .integer, notNull: true), C("entity_id", .text),
        C("vehicle_id", .text), C("label", .text), C("trip", .integer), C("trip_id", .text), C("route_id", .text),
        C("start_date", .integer), C("lat", .real), C("lon", .real), C("bearing", .real), C("speed", .real),
        C("stop_id", .text), C("stop_sequence", .integer), C("status", .integer), C("timestamp", .integer),
    ])

    /// Alerts, with the text of each field in every language given (`realtime_alert_texts`), their
    /// active periods and the entities they inform.
    static let alerts = TableDefinition("realtime_alerts", columns: [
        C("id", .integer, primaryKey: true), C("feed", .integer, notNull: true), C("entity_id", .text),
        C("cause", .integer), C("effect", .integer),
    ])
    static let alertTexts = TableDefinition("realtime_alert_texts", columns: [
        C("alert", .integer, notNull: true), C("field", .text, notNull: true), C("position", .integer, notNull: true),
        C("language", .text), C("text", .text, notNull: true),
    ], primaryKey: ["alert", "field", "position"], withoutRowID: true)
    static let alertPeriods = TableDefinition("realtime_alert_periods", columns: [
        C("alert", .integer, notNull: true), C("start", .integer), C("end", .integer),
    ])
    static let alertEntities = TableDefinition("realtime_alert_entities", columns: [
        C("alert", .integer, notNull: true), C("agency_id", .text), C("route_id", .text), C("route_type", .integer),
        C("trip_id", .text), C("stop_id", .text), C("direction_id", .integer),
    ])

    /// Per feed with realtime data: the timestamp its freshness is judged by (the oldest header of
    /// the sources that had trip updates), the range of the predicted delays, by which
    /// departures widen their search for changed stop times (a bus scheduled before `--at` but
    /// late enough is listed), and how many departures NEW trips add (none: not searched).
    static let feeds = TableDefinition("realtime_feeds", columns: [
        C("feed", .integer, primaryKey: true), C("timestamp", .integer),
        C("latest_delay", .integer, notNull: true, default: 0), C("earliest_delay", .integer, notNull: true, default: 0),
        C("added_departures", .integer, notNull: true, default: 0),
    ])

    /// The trip updates applied to the timetable when they are stored (rules 2-6): for each stop
    /// time of a matched run that realtime changes, the delay to add to its times, or `skipped`
    /// (a SKIPPED stop, every stop of a CANCELED or DELETED run). Stop times without a row keep
    /// the timetable.
    ///
    /// Keyed by stop and scheduled moment, so a departures query finds, with one index range per
    /// stop, every run that realtime moves into or out of its window; `run_start` is the run's
    /// start (GTFS seconds) for a trip run by `frequencies.txt`, NULL otherwise.
    static let stopTimes = TableDefinition("realtime_stop_times", columns: [
        C("stop", .integer, notNull: true), C("scheduled", .integer, notNull: true),
        C("trip", .integer, notNull: true), C("stop_sequence", .integer, notNull: true), C("service_date", .integer, notNull: true),
        C("run_start", .integer), C("delay", .integer), C("skipped", .integer, notNull: true, default: 0),
    ], primaryKey: ["stop", "scheduled", "trip", "stop_sequence"], withoutRowID: true)

    /// The departures of NEW (or ADDED) trips, which the timetable does not have: at their
    /// updated stops but the last, at the times given.
    static let addedDepartures = TableDefinition("realtime_added_departures", columns: [
        C("id", .integer, primaryKey: true), C("feed", .integer, notNull: true), C("trip_update", .integer, notNull: true),
        C("stop", .integer, notNull: true), C("instant", .integer, notNull: true), C("service_date", .integer, notNull: true),
        C("trip_id", .text), C("route", .integer), C("route_id", .text), C("headsign", .text),
    ])

    /// Every realtime table, in creation order.
    public static let tables = [sources, feeds, tripUpdates, stopTimeUpdates, stopTimes, addedDepartures, vehicles, alerts,
                                alertTexts, alertPeriods, alertEntities]

    /// The indexes the realtime reads use.
    public static let indexes = [
        IndexDefinition("realtime_trip_updates_by_trip", on: "realtime_trip_updates", columns: ["trip", "service_date"]),
        IndexDefinition("realtime_trip_updates_by_feed", on: "realtime_trip_updates", columns: ["feed"]),
        IndexDefinition("realtime_added_departures_by_stop", on: "realtime_added_departures", columns: ["stop", "instant"]),
        IndexDefinition("realtime_vehicles_by_feed", on: "realtime_vehicles", columns: ["feed"]),
        IndexDefinition("realtime_alerts_by_feed", on: "realtime_alerts", columns: ["feed"]),
        IndexDefinition("realtime_alert_periods_by_alert", on: "realtime_alert_periods", columns: ["alert"]),
        IndexDefinition("realtime_alert_entities_by_alert", on: "realtime_alert_entities", columns: ["alert"]),
    ]
}
