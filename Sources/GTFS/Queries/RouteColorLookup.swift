import FetchRequest

/// A route as output names it: its feed's name and its `route_id`.
public struct RouteName: Hashable, Sendable {
    public let feed: String
    public let routeID: String
    public init(feed: String, routeID: String) {
        self.feed = feed
        self.routeID = routeID
    }
}

extension TransitDatabase {
    /// `route_color` and `route_text_color` (as the feed gives them, nil when empty) of the routes
    /// named, for drawing them on a terminal: one request through `routes_by_route_id`.
    public func routeColors(of routes: Set<RouteName>) throws -> [RouteName: (color: String?, textColor: String?)] {
        guard !routes.isEmpty else { return [:] }
        let query = Query(table: "routes").select(Column("feed"), Column("route_id"), Column("route_color"), Column("route_text_color"))
            .filter(Column("route_id").isIn(Array(Set(routes.map(\.routeID))).sorted()))
        var found: [RouteName: (color: String?, textColor: String?)] = [:]
        try database.forEachRow(SQLGenerator.prepare(query)) { row in
            guard let feed = feeds.first(where: { $0.key == row.int("feed") }) else { return }
            let name = RouteName(feed: feed.name, routeID: row.string("route_id"))
            if routes.contains(name) { found[name] = (row.optionalString("route_color"), row.optionalString("route_text_color")) }
        }
        return found
    }
}
