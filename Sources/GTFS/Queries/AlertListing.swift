import FetchRequest

/// "What is disrupted": the alerts active at a moment, all of them or those whose informed
/// entities concern a place (its stops and their stations, the routes calling there, their types
/// and agencies) or a route.
public struct AlertListing: Sendable {
    /// What the alerts must concern; nil: every alert.
    public var concerning: Scope?
    /// The language wanted (BCP-47 code); texts fall back to the feed's language, then to a text
    /// without language, then to the first.
    public var language: String?

    /// The ids an informed entity is compared with, per feed key.
    public struct Scope: Sendable {
        /// What the alerts of each feed (by key) must name to concern the scope: an alert names
        /// its own feed's stops and routes, so an alert of a feed not here concerns nothing.
        public var feeds: [Int: Identifiers] = [:]
        public init() {}

        /// The ids of one feed an informed entity is compared with.
        public struct Identifiers: Sendable, Equatable {
            public var stopIDs: Set<String> = []
            public var routeIDs: Set<String> = []
            public var routeTypes: Set<Int> = []
            public var agencyIDs: Set<String> = []
            public var tripIDs: Set<String> = []
            public init() {}
        }
    }

    public init() {}

    static let causes = [1: "UNKNOWN_CAUSE", 2: "OTHER_CAUSE", 3: "TECHNICAL_PROBLEM", 4: "STRIKE", 5: "DEMONSTRATION", 6: "ACCIDENT",
                         7: "HOLIDAY", 8: "WEATHER", 9: "MAINTENANCE", 10: "CONSTRUCTION", 11: "POLICE_ACTIVITY", 12: "MEDICAL_EMERGENCY"]
    static let effects = [1: "NO_SERVICE", 2: "REDUCED_SERVICE", 3: "SIGNIFICANT_DELAYS", 4: "DETOUR", 5: "ADDITIONAL_SERVICE",
                          6: "MODIFIED_SERVICE", 7: "OTHER_EFFECT", 8: "UNKNOWN_EFFECT", 9: "STOP_MOVED", 10: "NO_EFFECT", 11: "ACCESSIBILITY_ISSUE"]

    /// The alerts of the selected feeds active at `instant`, in feed then alert id order. Per
    /// feed, over the entities of its model: `realtime_alerts`, then, when it has some, their
    /// `realtime_alert_periods`, `realtime_alert_texts` and `realtime_alert_entities` (each
    /// entity's scope is the feed's alerts) and its `feed_info.feed_lang`:
    ///
    ///     SELECT "realtime_alerts"."entity_id", "realtime_alerts"."cause", "realtime_alerts"."effect", "realtime_alerts"."id"
    ///     FROM "realtime_alerts" WHERE "realtime_alerts"."feed" = ? ORDER BY "realtime_alerts"."id"
    ///     SELECT "realtime_alert_periods"."start", "realtime_alert_periods"."end", "realtime_alert_periods"."alert"
    ///     FROM "realtime_alert_periods"
    ///     WHERE "realtime_alert_periods"."alert" IN (SELECT "id" FROM "realtime_alerts" WHERE "feed" = ?)
    ///     ORDER BY "realtime_alert_periods"."alert", "realtime_alert_periods"."rowid"
    public func run(on transit: TransitDatabase, at instant: Int) throws -> [ServiceAlert] {
        var found: [ServiceAlert] = []
        do {
            // One fetch per feed: an entity of a feed's model holds that feed's rows only.
            for feed in transit.selectedFeeds {
                try collect(feed, at: instant, on: transit, into: &found)
            }
        } catch let error as DatabaseError where error.isMissingTable {
            // No realtime data was ever read into this database.
            return []
        }
        found.sort { $0.feed != $1.feed ? feedOrder($0.feed, $1.feed) : $0.alertID.utf8.lexicographicallyPrecedes($1.alertID.utf8) }
        return found
    }

    /// Appends the alerts of `feed` active at `instant` that concern the scope to `found`.
    private func collect(_ feed: Feed, at instant: Int, on transit: TransitDatabase, into found: inout [ServiceAlert]) throws {
        guard let stored = try StoredAlerts(of: feed, on: transit) else { return }
        for alert in stored.alerts {
            guard let period = stored.activePeriod(of: alert.key, at: instant) else { continue }
            let informed = stored.entities[alert.key] ?? []
            if let concerning {
                // An alert names its own feed's stops and routes, whatever their ids elsewhere.
                guard let scope = concerning.feeds[feed.key], Self.concerns(informed, scope) else { continue }
            }
            let words = informed.map { entity -> String in
                [entity.agency.map { "agency \($0)" }, entity.route.map { "route \($0)" }, entity.type.map { "route type \($0)" },
                 entity.trip.map { "trip \($0)" }, entity.stop.map { "stop \($0)" }].compactMap { $0 }.joined(separator: " ")
            }
            let text = { (field: String) in stored.text(field, of: alert.key, language: language) }
            found.append(ServiceAlert(
                feed: feed.name, alertID: alert.id,
                cause: alert.cause.map { AlertListing.causes[$0] ?? String($0) }, effect: alert.effect.map { AlertListing.effects[$0] ?? String($0) },
                header: text("header"), description: text("description"), url: text("url"),
                activeFrom: period.0, activeUntil: period.1, entities: words))
        }
    }

    /// True when one of `informed` concerns `scope`: it gives a specifier, and every specifier
    /// it gives (agency, route, route type, trip, stop) is in the scope.
    private static func concerns(_ informed: [StoredAlerts.InformedEntity], _ scope: Scope.Identifiers) -> Bool {
        informed.contains { entity in
            (entity.agency != nil || entity.route != nil || entity.type != nil || entity.trip != nil || entity.stop != nil)
                && entity.agency.map { scope.agencyIDs.contains($0) } ?? true
                && entity.route.map { scope.routeIDs.contains($0) } ?? true
                && entity.type.map { scope.routeTypes.contains($0) } ?? true
                && entity.trip.map { scope.tripIDs.contains($0) } ?? true
                && entity.stop.map { scope.stopIDs.contains($0) } ?? true
        }
    }
}

/// One feed's stored alerts with their periods, texts and informed entities (per alert key), and
/// the feed's language, each read in one request over the feed's model.
private struct StoredAlerts {
    typealias InformedEntity = (agency: String?, route: String?, type: Int?, trip: String?, stop: String?)

    var alerts: [(key: Int, id: String, cause: Int?, effect: Int?)] = []
    var periods: [Int: [(start: Int?, end: Int?)]] = [:]
    /// In the entity's natural order: alert, field, then position.
    var texts: [Int: [(field: String, language: String?, text: String)]] = [:]
    var entities: [Int: [InformedEntity]] = [:]
    var feedLanguage: String?

    /// Reads the alerts of `feed`; nil when it has none (and the rest is not read).
    init?(of feed: Feed, on transit: TransitDatabase) throws {
        let alertFetch = TransitModel.fetch("realtime_alerts", feedKey: feed.key, inNaturalOrder: true)
        let alertKey = alertFetch.entity.keyColumn
        try transit.database.forEachRow(SQLGenerator.prepare(try alertFetch.query(selecting: ["entity_id", "cause", "effect"], columns: [alertKey]).query)) {
            alerts.append(($0.int(alertKey), $0.optionalString("entity_id") ?? "", $0.optionalInt("cause"), $0.optionalInt("effect")))
        }
        guard !alerts.isEmpty else { return nil }
        try readDetails(of: feed, on: transit)
    }

    /// Reads the periods, texts and informed entities of the feed's alerts, and the feed's language.
    private mutating func readDetails(of feed: Feed, on transit: TransitDatabase) throws {
        let periodFetch = TransitModel.fetch("realtime_alert_periods", feedKey: feed.key, inNaturalOrder: true)
        let periodAlert = periodFetch.keyColumnPath(of: "alert")
        try transit.database.forEachRow(SQLGenerator.prepare(try periodFetch.query(selecting: ["start", "end"], columns: [periodAlert]).query)) {
            periods[$0.int(periodAlert), default: []].append(($0.optionalInt("start"), $0.optionalInt("end")))
        }
        let textFetch = TransitModel.fetch("realtime_alert_texts", feedKey: feed.key, inNaturalOrder: true)
        let textAlert = textFetch.keyColumnPath(of: "alert")
        try transit.database.forEachRow(SQLGenerator.prepare(try textFetch.query(selecting: ["field", "language", "text"], columns: [textAlert]).query)) {
            texts[$0.int(textAlert), default: []].append(($0.string("field"), $0.optionalString("language"), $0.string("text")))
        }
        let entityFetch = TransitModel.fetch("realtime_alert_entities", feedKey: feed.key, inNaturalOrder: true)
        let entityAlert = entityFetch.keyColumnPath(of: "alert")
        let entityQuery = try entityFetch.query(selecting: ["agency_id", "route_id", "route_type", "trip_id", "stop_id"], columns: [entityAlert]).query
        try transit.database.forEachRow(SQLGenerator.prepare(entityQuery)) {
            entities[$0.int(entityAlert), default: []].append(($0.optionalString("agency_id"), $0.optionalString("route_id"), $0.optionalInt("route_type"),
                                                           $0.optionalString("trip_id"), $0.optionalString("stop_id")))
        }
        var info = TransitModel.fetch("feed_info", feedKey: feed.key, inNaturalOrder: true)
        try info.filter(format: "feed_lang != nil")
        try transit.database.forEachRow(SQLGenerator.prepare(try info.query(selecting: ["feed_lang"]).query)) { feedLanguage = $0.string("feed_lang") }
    }

    /// The period of alert `key` containing `instant` (start <= instant < end, nil ends open);
    /// (nil, nil) for an alert without periods, which is always active; nil when inactive.
    func activePeriod(of key: Int, at instant: Int) -> (start: Int?, end: Int?)? {
        let ranges = periods[key] ?? []
        return ranges.isEmpty ? (nil, nil) : ranges.first { ($0.start ?? Int.min) <= instant && instant < ($0.end ?? Int.max) }
    }

    /// Alert `key`'s text for `field` in `language`, else the feed's language, else without
    /// language, else the first.
    func text(_ field: String, of key: Int, language: String?) -> String? {
        let candidates = (texts[key] ?? []).filter { $0.field == field }
        let wanted = [language, feedLanguage].compactMap { $0?.lowercased() }
        for code in wanted {
            if let match = candidates.first(where: { $0.language?.lowercased() == code }) { return match.text }
        }
        return (candidates.first { $0.language == nil } ?? candidates.first)?.text
    }
}

extension AlertListing.Scope {
    /// The scope of some stops (boarding points): their stop_ids and their stations', and the
    /// routes calling there with their types and agencies. Per feed of the stops, over its model:
    ///
    ///     SELECT "stops"."stop_id", "stops.parent_station"."stop_id" AS "parent_station" FROM "stops"
    ///     LEFT JOIN "stops" AS "stops.parent_station" ON "stops.parent_station"."id" = "stops"."parent"
    ///     WHERE "stops"."id" BETWEEN ? AND ? AND "stops"."id" IN (?, …)
    public static func of(stopKeys: [Int], in transit: TransitDatabase) throws -> AlertListing.Scope {
        var scope = AlertListing.Scope()
        for (feedKey, keys) in Dictionary(grouping: stopKeys, by: { FeedKeys.feed(of: $0) }) {
            guard let feed = transit.feed(ofKey: FeedKeys.base(of: feedKey)) else { continue }
            var ids = Identifiers()
            var stops = TransitModel.fetch("stops", feedKey: feedKey)
            stops.filter(stops.key.isIn(keys))
            try transit.database.forEachRow(SQLGenerator.prepare(try stops.query(selecting: ["stop_id", "parent_station"]).query)) {
                ids.stopIDs.insert($0.string("stop_id"))
                if let station = $0.optionalString("parent_station") { ids.stopIDs.insert(station) }
            }
            // The routes calling at the feed's stops, with their types and agencies.
            var listing = RouteListing()
            listing.stopKeys = keys
            let routeIDs = Array(Set(try listing.run(on: transit).filter { $0.feed == feed.name }.map(\.routeID)))
            if !routeIDs.isEmpty {
                var routes = TransitModel.fetch("routes", feedKey: feedKey)
                routes.filter(routes.required("route_id").isIn(routeIDs))
                try ids.addRoutes(routes, in: transit)
            }
            scope.feeds[feedKey] = ids
        }
        return scope
    }

    /// The scope of one route (its key): it, its type and its agency.
    public static func of(route: Int, in transit: TransitDatabase) throws -> AlertListing.Scope {
        var scope = AlertListing.Scope()
        var ids = Identifiers()
        var fetch = TransitModel.fetch("routes", feedKey: FeedKeys.feed(of: route))
        fetch.filter(fetch.key == route)
        try ids.addRoutes(fetch, in: transit)
        scope.feeds[FeedKeys.feed(of: route)] = ids
        return scope
    }
}

extension AlertListing.Scope.Identifiers {
    /// Adds the routes `fetch` (a fetch of `routes`) finds, with their types and agencies:
    ///
    ///     SELECT "routes"."route_id", "routes"."route_type", "routes.agency"."agency_id" AS "agency.agency_id" FROM "routes"
    ///     LEFT JOIN "agency" AS "routes.agency" ON "routes.agency"."id" = "routes"."agency"
    ///     WHERE "routes"."id" BETWEEN ? AND ? AND "routes"."id" = ?
    fileprivate mutating func addRoutes(_ fetch: ModelFetch, in transit: TransitDatabase) throws {
        // Into sets: in no order.
        var fetch = fetch
        fetch.breaksTiesByNaturalOrder = false
        var found: [(route: String, type: Int?, agency: String?)] = []
        try transit.database.forEachRow(SQLGenerator.prepare(try fetch.query(selecting: ["route_id", "route_type", "agency.agency_id"]).query)) {
            found.append(($0.string("route_id"), $0.optionalInt("route_type"), $0.optionalString("agency.agency_id")))
        }
        for (route, type, agency) in found {
            routeIDs.insert(route)
            if let type { routeTypes.insert(type) }
            if let agency { agencyIDs.insert(agency) }
        }
    }
}
