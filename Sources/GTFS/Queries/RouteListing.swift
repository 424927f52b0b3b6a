import FetchRequest

/// A route as `transit routes` lists it.
public struct RouteSummary: Sendable, Equatable {
    public let feed: String
    public let routeID: String
    public let agency: String?
    public let shortName: String
    public let longName: String
    public let type: Int
    public let color: String?
    public let textColor: String?
    public let sortOrder: Int?
    /// Trips of the route in the feed.
    public let trips: Int

    /// The route type's name ("bus", "tram", …), basic and extended types alike.
    public var typeName: String { RouteType.name(of: type) }
}

/// GTFS `route_type`: the basic types and the extended (Hierarchical Vehicle Type) ones, by name.
public enum RouteType {
    /// The basic types' names, by number.
    static let basic: [Int: String] = [
        0: "tram", 1: "subway", 2: "rail", 3: "bus", 4: "ferry", 5: "cable tram", 6: "aerial lift",
        7: "funicular", 11: "trolleybus", 12: "monorail",
    ]

    /// The name of `type`: a basic type's, or for an extended type (100–1799) the basic kind it
    /// belongs to ("rail" for 100–199 railway services, "bus" for 700–799, …).
    public static func name(of type: Int) -> String {
        if let name = basic[type] { return name }
        switch type {
        case 100..<200, 300..<400: return "rail"
        case 200..<300: return "coach"
        case 400..<500: return "subway"
        case 700..<800: return "bus"
        case 800..<900: return "trolleybus"
        case 900..<1000: return "tram"
        case 1000..<1100, 1200..<1300: return "ferry"
        case 1100..<1200: return "air"
        case 1300..<1400: return "aerial lift"
        case 1400..<1500: return "funicular"
        case 1500..<1600: return "taxi"
        default: return "other (\(type))"
        }
    }

    /// The names `--type` takes.
    public static var names: [String] {
        Array(Set(basic.values).union(["coach", "air", "taxi"])).sorted()
    }

    /// True when `type` is of the kind `filter` names: a number (that type exactly) or a name
    /// (basic and extended types of that kind: "bus" is 3 and 700–799).
    public static func matches(_ type: Int, filter: String) -> Bool {
        if let number = Int(filter) { return type == number }
        return name(of: type) == filter.lowercased()
    }
}

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

/// Natural order of names with numbers: runs of digits compare as numbers ("2" before "10",
/// "N2" before "N10"), everything else by code point.
public enum NaturalOrder {
    public static func precedes(_ a: String, _ b: String) -> Bool {
        var x = Array(a.unicodeScalars)[...], y = Array(b.unicodeScalars)[...]
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }
        while let p = x.first, let q = y.first {
            if isDigit(p) && isDigit(q) {
                let m = x.prefix { isDigit($0) }, n = y.prefix { isDigit($0) }
                let mm = m.drop { $0 == "0" }, nn = n.drop { $0 == "0" }
                if mm.count != nn.count { return mm.count < nn.count }
                for (c, d) in zip(mm, nn) where c != d { return c.value < d.value }
                if m.count != n.count { return m.count < n.count }
                x = x.dropFirst(m.count)
                y = y.dropFirst(n.count)
            } else {
                if p != q { return p.value < q.value }
                x = x.dropFirst()
                y = y.dropFirst()
            }
        }
        return x.isEmpty && !y.isEmpty
    }
}
