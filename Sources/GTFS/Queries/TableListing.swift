import FetchRequest

/// A GTFS table as `transit list` prints it: the feed's own column names and ids (joined back from
/// the integer keys), times as `HH:MM:SS`, rows in key order. Each feed is one request over its
/// key range (or its own table), the feed's name as the first column.
public struct TableListing: Sendable {
    /// How a column's values are written.
    public enum Kind: Sendable {
        case text, integer, real
        /// Seconds after the start of the service day, written as `HH:MM:SS`.
        case time
    }

    /// One output column: its name and the SQL expression that computes it.
    public struct Field: Sendable {
        public let name: String
        public let expression: SQLExpression
        public let kind: Kind
    }

    /// The tables that can be listed, by the name the command takes.
    public static let all: [String: TableListing] = [
        "stops": stops, "routes": routes, "trips": trips, "stop-times": stopTimes,
    ]

    public let name: String
    /// The rows of one feed, in order, before the fields are selected.
    let base: @Sendable (Feed) -> Query
    /// The columns, `feed` first (its value is the feed's name, bound per feed).
    public let fields: [Field]

    init(name: String, base: @escaping @Sendable (Feed) -> Query, fields: [Field]) {
        self.name = name
        self.base = base
        self.fields = [Field(name: "feed", expression: .value(""), kind: .text)] + fields
    }

    /// A `--where` condition that names no column of the table, or has no `=`.
    public struct UnknownField: Error, CustomStringConvertible {
        public let condition: String
        public let known: [String]
        public var description: String {
            "--where takes FIELD=VALUE with FIELD one of \(known.joined(separator: ", ")); got '\(condition)'"
        }
    }

    /// The query for this table's rows of `feed` filtered by `conditions` (`FIELD=VALUE`, combined
    /// with AND). Field names are checked against this table's columns; values are bound, never
    /// spliced.
    public func query(for feed: Feed, where conditions: [String]) throws -> Query {
        let selected = [SelectedProperty(.value(feed.name), as: "feed")]
            + fields.dropFirst().map { SelectedProperty($0.expression, as: $0.name) }
        var query = base(feed).select(selected)
        for condition in conditions {
            guard let equals = condition.firstIndex(of: "="),
                  let field = fields.dropFirst().first(where: { $0.name == String(condition[..<equals]) }) else {
                throw UnknownField(condition: condition, known: fields.dropFirst().map(\.name))
            }
            let text = String(condition[condition.index(after: equals)...])
            switch field.kind {
            case .integer:
                query = query.filter(Int(text).map { field.expression == $0 } ?? (field.expression == text))
            case .real:
                query = query.filter(Double(text).map { field.expression == $0 } ?? (field.expression == text))
            case .time:
                query = query.filter(GTFSTime.seconds(text).map { field.expression == $0 } ?? (field.expression == text))
            case .text:
                query = query.filter(field.expression == text)
            }
        }
        return query
    }

    /// Checks `conditions` name columns of this table (what `query(for:where:)` would throw).
    public func validate(where conditions: [String]) throws {
        for condition in conditions {
            guard let equals = condition.firstIndex(of: "="),
                  fields.dropFirst().contains(where: { $0.name == String(condition[..<equals]) }) else {
                throw UnknownField(condition: condition, known: fields.dropFirst().map(\.name))
            }
        }
    }

    private static func field(_ name: String, _ column: String, of table: String, _ kind: Kind = .text) -> Field {
        Field(name: name, expression: Column(column, of: table), kind: kind)
    }

    static let stops = TableListing(
        name: "stops",
        base: { feed in
            Query(table: "stops").joining(Join(.left, table: "stops", as: "parent_stop", on: Column("id", of: "parent_stop") == Column("parent", of: "stops")))
                .filter(Column("id", of: "stops").between(feed.keys.lowerBound, and: feed.keys.upperBound))
                .sorted(by: [Column("id", of: "stops").ascending])
        },
        fields: [
            field("stop_id", "stop_id", of: "stops"), field("stop_code", "stop_code", of: "stops"),
            field("stop_name", "stop_name", of: "stops"), field("stop_desc", "stop_desc", of: "stops"),
            field("stop_lat", "stop_lat", of: "stops", .real), field("stop_lon", "stop_lon", of: "stops", .real),
            field("zone_id", "zone_id", of: "stops"), field("location_type", "location_type", of: "stops", .integer),
            field("parent_station", "stop_id", of: "parent_stop"), field("platform_code", "platform_code", of: "stops"),
            field("wheelchair_boarding", "wheelchair_boarding", of: "stops", .integer),
        ])

    static let routes = TableListing(
        name: "routes",
        base: { feed in
            Query(table: "routes").joining(Join(.left, table: "agency", on: Column("id", of: "agency") == Column("agency", of: "routes")))
                .filter(Column("id", of: "routes").between(feed.keys.lowerBound, and: feed.keys.upperBound))
                .sorted(by: [Column("id", of: "routes").ascending])
        },
        fields: [
            field("route_id", "route_id", of: "routes"), field("agency_id", "agency_id", of: "agency"),
            field("route_short_name", "route_short_name", of: "routes"), field("route_long_name", "route_long_name", of: "routes"),
            field("route_desc", "route_desc", of: "routes"), field("route_type", "route_type", of: "routes", .integer),
            field("route_color", "route_color", of: "routes"), field("route_text_color", "route_text_color", of: "routes"),
        ])

    static let trips = TableListing(
        name: "trips",
        base: { feed in
            Query(table: "trips")
                .joining(Join(table: "routes", on: Column("id", of: "routes") == Column("route", of: "trips")))
                .joining(Join(table: "services", on: Column("id", of: "services") == Column("service", of: "trips")))
                .filter(Column("id", of: "trips").between(feed.keys.lowerBound, and: feed.keys.upperBound))
                .sorted(by: [Column("id", of: "trips").ascending])
        },
        fields: [
            field("route_id", "route_id", of: "routes"), field("service_id", "service_id", of: "services"),
            field("trip_id", "trip_id", of: "trips"), field("trip_headsign", "trip_headsign", of: "trips"),
            field("trip_short_name", "trip_short_name", of: "trips"), field("direction_id", "direction_id", of: "trips", .integer),
            field("block_id", "block_id", of: "trips"), field("shape_id", "shape_id", of: "trips"),
        ])

    /// In the table's key order (trip, stop_sequence), so no sort is needed however many rows.
    static let stopTimes = TableListing(
        name: "stop-times",
        base: { feed in
            Query(table: feed.tables.stopTimes, alias: "stop_times")
                .joining(Join(table: "trips", on: Column("id", of: "trips") == Column("trip", of: "stop_times")))
                .joining(Join(table: "stops", on: Column("id", of: "stops") == Column("stop", of: "stop_times")))
                .sorted(by: [Column("trip", of: "stop_times").ascending, Column("stop_sequence", of: "stop_times").ascending])
        },
        fields: [
            field("trip_id", "trip_id", of: "trips"), field("arrival_time", "arrival", of: "stop_times", .time),
            field("departure_time", "departure", of: "stop_times", .time), field("stop_id", "stop_id", of: "stops"),
            field("stop_sequence", "stop_sequence", of: "stop_times", .integer), field("stop_headsign", "stop_headsign", of: "stop_times"),
            field("pickup_type", "pickup_type", of: "stop_times", .integer), field("drop_off_type", "drop_off_type", of: "stop_times", .integer),
            field("timepoint", "timepoint", of: "stop_times", .integer), field("shape_dist_traveled", "shape_dist_traveled", of: "stop_times", .real),
            field("interpolated", "interpolated", of: "stop_times", .integer),
        ])
}
