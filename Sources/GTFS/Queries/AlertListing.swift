import FetchRequest

/// A service alert from stored realtime data, with its text in the language chosen.
public struct ServiceAlert: Sendable {
    public let feed: String
    public let alertID: String
    public let cause: String?
    public let effect: String?
    public let header: String?
    public let description: String?
    public let url: String?
    /// The active period containing the time asked (nil ends: open; both nil: always active).
    public let activeFrom: Int?
    public let activeUntil: Int?
    /// The informed entities, as words: "route 1", "stop 107N", "agency MTA", "route type 1", "trip X".
    public let entities: [String]
}

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
        public var stopIDs: Set<String> = []
        public var routeIDs: Set<String> = []
        public var routeTypes: Set<Int> = []
        public var agencyIDs: Set<String> = []
        public var tripIDs: Set<String> = []
        public init() {}
    }

    public init() {}

    static let causes = [1: "UNKNOWN_CAUSE", 2: "OTHER_CAUSE", 3: "TECHNICAL_PROBLEM", 4: "STRIKE", 5: "DEMONSTRATION", 6: "ACCIDENT",
                         7: "HOLIDAY", 8: "WEATHER", 9: "MAINTENANCE", 10: "CONSTRUCTION", 11: "POLICE_ACTIVITY", 12: "MEDICAL_EMERGENCY"]
    static let effects = [1: "NO_SERVICE", 2: "REDUCED_SERVICE", 3: "SIGNIFICANT_DELAYS", 4: "DETOUR", 5: "ADDITIONAL_SERVICE",
                          6: "MODIFIED_SERVICE", 7: "OTHER_EFFECT", 8: "UNKNOWN_EFFECT", 9: "STOP_MOVED", 10: "NO_EFFECT", 11: "ACCESSIBILITY_ISSUE"]

    /// The alerts of the selected feeds active at `instant`, in feed then alert id order.
    public func run(on transit: TransitDatabase, at instant: Int) throws -> [ServiceAlert] {
        let feeds = transit.selectedFeeds.map(\.key)
        var alerts: [(key: Int, feed: Int, id: String, cause: Int?, effect: Int?)] = []
        do {
            let query = Query(table: "realtime_alerts").select(Column("id"), Column("feed"), Column("entity_id"), Column("cause"), Column("effect"))
                .filter(Column("feed").isIn(feeds))
            try transit.database.forEachRow(SQLGenerator.prepare(query)) {
                alerts.append(($0.int("id"), $0.int("feed"), $0.optionalString("entity_id") ?? "", $0.optionalInt("cause"), $0.optionalInt("effect")))
            }
        } catch let error as DatabaseError where error.isMissingTable {
            return []
        }
        guard !alerts.isEmpty else { return [] }
        let keys = alerts.map(\.key)
        var periods: [Int: [(Int?, Int?)]] = [:]
        try transit.database.forEachRow(SQLGenerator.prepare(Query(table: "realtime_alert_periods")
            .select(Column("alert"), Column("start"), Column("end")).filter(Column("alert").isIn(keys)))) {
            periods[$0.int("alert"), default: []].append(($0.optionalInt("start"), $0.optionalInt("end")))
        }
        var texts: [Int: [(field: String, language: String?, text: String)]] = [:]
        try transit.database.forEachRow(SQLGenerator.prepare(Query(table: "realtime_alert_texts")
            .select(Column("alert"), Column("field"), Column("language"), Column("text")).filter(Column("alert").isIn(keys))
            .sorted(by: [Column("alert").ascending, Column("field").ascending, Column("position").ascending]))) {
            texts[$0.int("alert"), default: []].append(($0.string("field"), $0.optionalString("language"), $0.string("text")))
        }
        var entities: [Int: [(agency: String?, route: String?, type: Int?, trip: String?, stop: String?)]] = [:]
        try transit.database.forEachRow(SQLGenerator.prepare(Query(table: "realtime_alert_entities")
            .select(Column("alert"), Column("agency_id"), Column("route_id"), Column("route_type"), Column("trip_id"), Column("stop_id"))
            .filter(Column("alert").isIn(keys)))) {
            entities[$0.int("alert"), default: []].append(($0.optionalString("agency_id"), $0.optionalString("route_id"), $0.optionalInt("route_type"),
                                                           $0.optionalString("trip_id"), $0.optionalString("stop_id")))
        }
        var feedLanguages: [Int: String] = [:]
        try transit.database.forEachRow(SQLGenerator.prepare(Query(table: "feed_info").select(Column("feed"), Column("feed_lang"))
            .filter(Column("feed").isIn(feeds) && Column("feed_lang").isNotNull))) { feedLanguages[$0.int("feed")] = $0.string("feed_lang") }

        var found: [ServiceAlert] = []
        for alert in alerts {
            // Active: no period means always; else a period with start <= instant < end.
            let ranges = periods[alert.key] ?? []
            let active = ranges.isEmpty ? (nil, nil) : ranges.first { ($0.0 ?? Int.min) <= instant && instant < ($0.1 ?? Int.max) }
            guard let period = active else { continue }
            let informed = entities[alert.key] ?? []
            if let scope = concerning {
                // An entity concerns the scope when every specifier it gives is in it.
                let concerns = informed.contains { entity in
                    (entity.agency != nil || entity.route != nil || entity.type != nil || entity.trip != nil || entity.stop != nil)
                        && entity.agency.map { scope.agencyIDs.contains($0) } ?? true
                        && entity.route.map { scope.routeIDs.contains($0) } ?? true
                        && entity.type.map { scope.routeTypes.contains($0) } ?? true
                        && entity.trip.map { scope.tripIDs.contains($0) } ?? true
                        && entity.stop.map { scope.stopIDs.contains($0) } ?? true
                }
                guard concerns else { continue }
            }
            func text(_ field: String) -> String? {
                let candidates = (texts[alert.key] ?? []).filter { $0.field == field }
                let wanted = [language, feedLanguages[alert.feed]].compactMap { $0?.lowercased() }
                for code in wanted {
                    if let match = candidates.first(where: { $0.language?.lowercased() == code }) { return match.text }
                }
                return (candidates.first { $0.language == nil } ?? candidates.first)?.text
            }
            let words = informed.map { entity -> String in
                [entity.agency.map { "agency \($0)" }, entity.route.map { "route \($0)" }, entity.type.map { "route type \($0)" },
                 entity.trip.map { "trip \($0)" }, entity.stop.map { "stop \($0)" }].compactMap { $0 }.joined(separator: " ")
            }
            found.append(ServiceAlert(
                feed: transit.feedName(ofKey: FeedKeys.base(of: alert.feed)), alertID: alert.id,
                cause: alert.cause.map { AlertListing.causes[$0] ?? String($0) }, effect: alert.effect.map { AlertListing.effects[$0] ?? String($0) },
                header: text("header"), description: text("description"), url: text("url"),
                activeFrom: period.0, activeUntil: period.1, entities: words))
        }
        found.sort { $0.feed != $1.feed ? feedOrder($0.feed, $1.feed) : $0.alertID.utf8.lexicographicallyPrecedes($1.alertID.utf8) }
        return found
    }
}

extension AlertListing.Scope {
    /// The scope of some stops (boarding points): their stop_ids and their stations', and the
    /// routes calling there with their types and agencies.
    public static func of(stopKeys: [Int], in transit: TransitDatabase) throws -> AlertListing.Scope {
        var scope = AlertListing.Scope()
        guard !stopKeys.isEmpty else { return scope }
        let stops = Query(table: "stops").select(Column("stop_id"), Column("parent")).filter(Column("id").isIn(stopKeys))
        var parents: [Int] = []
        try transit.database.forEachRow(SQLGenerator.prepare(stops)) {
            scope.stopIDs.insert($0.string("stop_id"))
            if let parent = $0.optionalInt("parent") { parents.append(parent) }
        }
        if !parents.isEmpty {
            try transit.database.forEachRow(SQLGenerator.prepare(Query(table: "stops").select(Column("stop_id")).filter(Column("id").isIn(parents)))) {
                scope.stopIDs.insert($0.string(0))
            }
        }
        var listing = RouteListing()
        listing.stopKeys = stopKeys
        let routeIDs = try listing.run(on: transit).map(\.routeID)
        try scope.addRoutes(Column("route_id").isIn(routeIDs), in: transit)
        return scope
    }

    /// The scope of one route: it, its type and its agency.
    public static func of(route: Int, in transit: TransitDatabase) throws -> AlertListing.Scope {
        var scope = AlertListing.Scope()
        try scope.addRoutes(Column("id", of: "routes") == route, in: transit)
        return scope
    }

    private mutating func addRoutes(_ predicate: SQLPredicate, in transit: TransitDatabase) throws {
        let routes = Query(table: "routes")
            .joining(Join(.left, table: "agency", on: Column("id", of: "agency") == Column("agency", of: "routes")))
            .select(Column("route_id", of: "routes"), Column("route_type", of: "routes"), Column("agency_id", of: "agency"))
            .filter(predicate)
        var found: [(String, Int?, String?)] = []
        try transit.database.forEachRow(SQLGenerator.prepare(routes)) { found.append(($0.string("route_id"), $0.optionalInt("route_type"), $0.optionalString("agency_id"))) }
        for (route, type, agency) in found {
            routeIDs.insert(route)
            if let type { routeTypes.insert(type) }
            if let agency { agencyIDs.insert(agency) }
        }
    }
}
