import FetchRequest
import Synchronization

/// A stop found near a point, with its great-circle distance.
public struct NearbyStop: Sendable, Equatable {
    public let stop: Stop
    /// Metres from the query point (haversine).
    public let distance: Double
    /// The name of the stop's feed.
    public let feed: String
}

/// "Which stops are near this point": Core Data's two-step nearby search, made right everywhere.
///
/// Step one is a fetch request with a bounding-box predicate that the `stops(stop_lon, stop_lat)`
/// index answers with a `SEARCH` (two longitude ranges across the 180° meridian, every longitude
/// near a pole). Step two computes the haversine distance of each candidate, keeps those within the
/// radius, sorts by distance, then feed name, then `stop_id`, and only then applies the limit, so
/// SQL never cuts a nearer stop. All feeds share the stops table, so any number of feeds is one
/// index search; `--feed` adds `feed = ? OR …`.
public struct NearbyStopsQuery: Sendable {
    public var latitude: Double
    public var longitude: Double
    /// Metres.
    public var radius: Double = 500
    /// At most this many stops (0: all).
    public var limit: Int = 20
    /// List every boarding point instead of stations and parentless stops.
    public var platforms = false

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The candidate request: the bounding box and the listing rule, with the box's corners as
    /// substitution variables (`$west0`, `$east0`, …, `$south`, `$north`).
    ///
    ///     SELECT … FROM "stops" WHERE "stops"."stop_lon" BETWEEN ? AND ?
    ///       AND "stops"."stop_lat" BETWEEN ? AND ? AND "stops"."location_type" IN (?, ?) AND "stops"."parent" IS NULL
    public static func candidateTemplate(longitudeRanges: Int, platforms: Bool) -> FetchRequest<Stop> {
        let longitudes = SQLPredicate.anyOf((0..<longitudeRanges).map {
            Stop.column(Stop.columns.longitude).between(.variable("west\($0)"), and: .variable("east\($0)"))
        })
        var request = FetchRequest<Stop>()
        request.predicate = longitudes
            && Stop.column(Stop.columns.latitude).between(.variable("south"), and: .variable("north"))
            && Stop.listed(platforms: platforms)
        return request
    }

    /// The four shapes of the candidate request (one or two longitude ranges, with or without
    /// platforms), generated once per process.
    private static let templates: [PreparedRequest] = (0..<4).map { shape(of: $0, keysOnly: false) }

    /// The same four shapes selecting only what `keysWithinRadius` reads (`keyColumns`): the
    /// rows it passes over are not decoded column by column.
    ///
    ///     SELECT "stops"."id", "stops"."stop_lat", "stops"."stop_lon" FROM "stops" WHERE …
    private static let keyTemplates: [PreparedRequest] = (0..<4).map { shape(of: $0, keysOnly: true) }

    /// What the key requests select, in order: a stop's key, latitude and longitude.
    private static let keyColumns = [Stop.columns.key, Stop.columns.latitude, Stop.columns.longitude]

    /// The candidate request of shape `shape` (`(longitude ranges - 1) + (platforms ? 2 : 0)`),
    /// restricted to `feeds` feeds when given.
    private static func shape(of shape: Int, keysOnly: Bool, feeds: Int? = nil) -> PreparedRequest {
        var request = candidateTemplate(longitudeRanges: shape % 2 + 1, platforms: shape >= 2)
        if let feeds { request = request.filter(TransitDatabase.feedsTemplate(Stop.column(Stop.columns.feed), count: feeds)) }
        // A box on the stops' location index: one plan serves any box.
        request.query.plannedOnce = true
        guard keysOnly else { return request.prepare() }
        return SQLGenerator.prepare(request.query.select(keyColumns.map { SelectedProperty(Column($0.name, of: request.query.alias)) }))
    }

    /// The shapes restricted to some feeds (`--feed`), generated on first use.
    private static let restrictedTemplates = TemplateCache<PreparedRequest>()

    /// The candidate request for this query, ready to run: the template with the box bound, and
    /// with `feeds`, only stops of those feeds (`feed = $feed0 OR …`, one template per count).
    public func candidates(feeds: [Int]? = nil) throws -> PreparedRequest {
        try candidates(feeds: feeds, keysOnly: false)
    }

    private func candidates(feeds: [Int]?, keysOnly: Bool) throws -> PreparedRequest {
        let box = Geo.boundingBox(latitude: latitude, longitude: longitude, radius: radius)
        let shape = (box.longitudes.count - 1) + (platforms ? 2 : 0)
        var template = keysOnly ? NearbyStopsQuery.keyTemplates[shape] : NearbyStopsQuery.templates[shape]
        if let feeds {
            template = NearbyStopsQuery.restrictedTemplates.template(key: (feeds.count * 4 + shape) * 2 + (keysOnly ? 1 : 0)) {
                NearbyStopsQuery.shape(of: shape, keysOnly: keysOnly, feeds: feeds.count)
            }
        }
        var values: [SQLValue] = []
        values.reserveCapacity(box.longitudes.count * 2 + 2 + (feeds?.count ?? 0))
        for range in box.longitudes { values += [.real(range.lowerBound), .real(range.upperBound)] }
        values += [.real(box.latitudes.lowerBound), .real(box.latitudes.upperBound)]
        for feed in feeds ?? [] { values.append(.integer(Int64(feed))) }
        return try template.binding(values)
    }

    /// The keys of the stops of the selected feeds within the radius, in no order and with no
    /// limit (`limit` is not read): what departures `--near` asks from, without decoding a record,
    /// naming a feed or sorting per stop. The same box and listing rule and exact pass as
    /// `run(on:)`, selecting the key and coordinates only.
    public func keysWithinRadius(on transit: TransitDatabase) throws -> [Int] {
        var keys: [Int] = []
        try transit.database.forEachRow(try candidates(feeds: transit.restrictedFeedKeys, keysOnly: true)) { row in
            // The places of `keyColumns`.
            let (keyColumn, latitudeColumn, longitudeColumn) = (0, 1, 2)
            guard !row.isNull(latitudeColumn), !row.isNull(longitudeColumn),
                  Geo.distance(latitude, longitude, row.double(latitudeColumn), row.double(longitudeColumn)) <= radius else { return }
            keys.append(row.int(keyColumn))
        }
        return keys
    }

    /// The stops of the selected feeds within the radius, nearest first (ties by feed name, then
    /// `stop_id`), at most `limit`.
    public func run(on transit: TransitDatabase) throws -> [NearbyStop] {
        var found: [NearbyStop] = []
        try transit.database.forEachRow(try candidates(feeds: transit.restrictedFeedKeys)) { row in
            // Only stops inside the circle are decoded into records.
            let (latitudeColumn, longitudeColumn) = (Stop.columns.latitude, Stop.columns.longitude)
            guard !row.isNull(latitudeColumn), !row.isNull(longitudeColumn) else { return }
            let distance = Geo.distance(latitude, longitude, row.double(latitudeColumn), row.double(longitudeColumn))
            if distance <= radius {
                let stop = try Stop(row: row)
                found.append(NearbyStop(stop: stop, distance: distance, feed: transit.feedName(ofKey: stop.key)))
            }
        }
        found.sort {
            if $0.distance != $1.distance { return $0.distance < $1.distance }
            if $0.feed != $1.feed { return feedOrder($0.feed, $1.feed) }
            return $0.stop.stopID.utf8.lexicographicallyPrecedes($1.stop.stopID.utf8)
        }
        if limit > 0, found.count > limit { found.removeSubrange(limit...) }
        return found
    }
}

/// Prepared templates by shape (a `PreparedRequest`, or one with what is found out about it once),
/// generated on first use, under a lock; shared by every query of the process.
final class TemplateCache<Template: Sendable>: Sendable {
    private let templates = Mutex<[Int: Template]>([:])

    /// The template for `key`, made by `make` the first time.
    func template(key: Int, _ make: () -> Template) -> Template {
        templates.withLock { templates in
            if let template = templates[key] { return template }
            let template = make()
            templates[key] = template
            return template
        }
    }
}
