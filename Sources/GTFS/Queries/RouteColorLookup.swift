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
        let c = Route.columns
        let read = [c.feed, c.routeID, c.color, c.textColor]
        let query = FetchRequest<Route>().filter(Route.column(c.routeID).isIn(Array(Set(routes.map(\.routeID))).sorted()))
            .query.select(read.map { SelectedProperty(Route.column($0)) })
        var found: [RouteName: (color: String?, textColor: String?)] = [:]
        try database.forEachRow(SQLGenerator.prepare(query)) { row in
            guard let feed = feeds.first(where: { $0.key == row.int(c.feed.name) }) else { return }
            let name = RouteName(feed: feed.name, routeID: row.string(c.routeID.name))
            if routes.contains(name) { found[name] = (row.optionalString(c.color.name), row.optionalString(c.textColor.name)) }
        }
        return found
    }
}
