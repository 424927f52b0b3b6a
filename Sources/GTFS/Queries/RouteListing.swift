import FetchRequest

/// "Which lines are there, which stop here": the routes of the selected feeds, optionally those with
/// a trip calling at given stops, in `route_sort_order`, then `route_short_name` in natural order
/// (2 before 10), then `route_id`.
public struct RouteListing: Sendable {
    /// Only routes with a trip calling at one of these stops (keys), when set.
    public var stopKeys: [Int]?
    /// Only routes whose type matches (`RouteType.matches`), when set.
    public var typeFilter: String?
    /// Only the route with this key (`transit route`).
    var onlyRoute: Int?

    public init() {}

    public func run(on transit: TransitDatabase) throws -> [RouteSummary] {
        try run(on: transit, feeds: transit.selectedFeeds)
    }

    func run(on transit: TransitDatabase, feeds: [Feed]) throws -> [RouteSummary] {
        var routes: [RouteSummary] = []
        for feed in feeds {
            // Trips per route: one pass over the feed's range of trips, grouped (a count per route
            // would scan every trip per route in a database written before trips_by_route).
            var tripCounts: [Int: Int] = [:]
            var trips = TransitModel.fetch("trips", feedKey: feed.key)
            let tripRoute = trips.key(of: "route")
            trips.select(tripRoute, as: "route")
            trips.select(countAll, as: "trips")
            let counts = trips.requiredQuery().grouped(by: [tripRoute])
            try transit.database.forEachRow(SQLGenerator.prepare(counts)) { tripCounts[$0.int("route")] = $0.int("trips") }
            var fetch = TransitModel.fetch("routes", feedKey: feed.key, inNaturalOrder: true)
            let routeKey = fetch.entity.keyColumn
            if let onlyRoute { fetch.filter(fetch.key == onlyRoute) }
            if let stopKeys {
                let here = stopKeys.filter { FeedKeys.feed(of: $0) == feed.key }
                guard !here.isEmpty else { continue }
                // The routes of the trips that call at the stops: an index range per stop, once
                // (not a walk of every trip of every route, as a correlated ANY would be).
                var calling = TransitModel.fetch("stop_times", feedKey: feed.key, inNaturalOrder: true)
                calling.filter(calling.key(of: "stop").isIn(here))
                var routesCalling = try calling.query(selecting: [], columns: [calling.keyColumnPath(of: "trip.route")]).query
                routesCalling.sortDescriptors = []
                fetch.filter(fetch.key.isIn(routesCalling))
            }
            typealias C = Route.Columns
            let agencyName = "agency." + Agency.Columns.name.name
            let query = try fetch.query(selecting: [C.routeID.name, agencyName] + [C.shortName, C.longName, C.type, C.color, C.textColor, C.sortOrder].names(),
                                        columns: [routeKey]).query
            try transit.database.forEachRow(SQLGenerator.prepare(query)) { row in
                let type = row.int(C.type.name)
                if let typeFilter, !RouteType.matches(type, filter: typeFilter) { return }
                routes.append(RouteSummary(feed: feed.name, routeID: row.string(C.routeID.name), agency: row.optionalString(agencyName),
                                           shortName: row.optionalString(C.shortName.name) ?? "", longName: row.optionalString(C.longName.name) ?? "",
                                           type: type, color: row.optionalString(C.color.name), textColor: row.optionalString(C.textColor.name),
                                           sortOrder: row.optionalInt(C.sortOrder.name), trips: tripCounts[row.int(routeKey)] ?? 0))
            }
        }
        routes.sort { a, b in
            if a.sortOrder != b.sortOrder {
                // Routes with an order come first, by it.
                guard let x = a.sortOrder else { return false }
                guard let y = b.sortOrder else { return true }
                return x < y
            }
            if a.shortName != b.shortName { return NaturalOrder.precedes(a.shortName, b.shortName) }
            if a.routeID != b.routeID { return a.routeID.utf8.lexicographicallyPrecedes(b.routeID.utf8) }
            return feedOrder(a.feed, b.feed)
        }
        return routes
    }
}
