import FetchRequest

/// What calls at a stop, so a rider can tell two stops of one name apart: the routes of the trips
/// boarding there and where they go (`trip_headsign`, else the trip's last stop's name), most
/// trips first. A station answers for its boarding points.
///
/// Read from each stop's stop times through their index by stop (which holds the trip, so no row
/// of the table itself is read) and the trips they belong to, grouped by route, headsign and last
/// stop; the names of those few routes and stops are read after. A stop's own `stop_headsign`
/// would mean reading every stop time's row: three times the cost on Vilnius' "Stotis" stops
/// (22 ms against 6 ms for 15 stops, 7,700 stop times), for a name the trip's headsign says in
/// nearly every feed. `search` asks it only for the rows that need it.
public struct StopServices: Sendable, Equatable {
    /// Route short names (else route_id), most trips first.
    public var routes: [String] = []
    /// Headsigns, most trips first.
    public var towards: [String] = []

    /// The services of each of `stops` (by key); a stop nothing boards at has empty lists.
    public static func of(_ stops: [Stop], in transit: TransitDatabase) throws -> [Int: StopServices] {
        guard !stops.isEmpty else { return [:] }
        // A station's boarding points answer for it.
        var answersFor: [Int: Int] = Dictionary(uniqueKeysWithValues: stops.map { ($0.key, $0.key) })
        let stations = stops.filter { $0.locationType == 1 }.map(\.key)
        if !stations.isEmpty {
            for child in try transit.database.fetch(FetchRequest<Stop>().filter(Stop.column(Stop.columns.parent).isIn(stations))) {
                if let parent = child.parent { answersFor[child.key] = parent }
            }
        }
        var groups: [(owner: Int, route: Int, headsign: String?, lastStop: Int?, trips: Int)] = []
        for feed in transit.selectedFeeds {
            let keys = answersFor.keys.filter { FeedKeys.feed(of: $0) == feed.key }.sorted()
            guard !keys.isEmpty else { continue }
            var calls = TransitModel.fetch("stop_times", feedKey: feed.key)
            let stop = calls.key(of: "stop"), lastStop = calls.key(of: "trip.last_stop")
            let route = calls.key(of: "trip.route"), headsign = calls.required("trip.trip_headsign")
            // Trips are not boarded where they end.
            calls.filter(stop.isIn(keys) && stop != lastStop)
            for (name, value) in [("stop", stop), ("route", route), ("headsign", headsign), ("last_stop", lastStop), ("trips", countAll)] {
                calls.select(value, as: name)
            }
            try transit.database.forEachRow(SQLGenerator.prepare(calls.requiredQuery().grouped(by: [stop, route, headsign, lastStop]))) { row in
                guard let owner = answersFor[row.int("stop")] else { return }
                groups.append((owner, row.int("route"), row.optionalString("headsign"), row.optionalInt("last_stop"), row.int("trips")))
            }
        }
        let routeNames = try names(ofRoutes: Set(groups.map(\.route)), in: transit)
        let stopNames = try Dictionary(transit.database.fetch(FetchRequest<Stop>().filter(Stop.column(Stop.columns.key).isIn(Set(groups.compactMap(\.lastStop)).sorted())))
            .map { ($0.key, $0.name) }, uniquingKeysWith: { first, _ in first })
        var tallies: [Int: (routes: [String: Int], towards: [String: Int])] = [:]
        for group in groups {
            if let name = routeNames[group.route] { tallies[group.owner, default: ([:], [:])].routes[name, default: 0] += group.trips }
            if let towards = group.headsign.flatMap({ $0.isEmpty ? nil : $0 }) ?? group.lastStop.flatMap({ stopNames[$0] }) {
                tallies[group.owner, default: ([:], [:])].towards[towards, default: 0] += group.trips
            }
        }
        return Dictionary(uniqueKeysWithValues: stops.map { stop in
            let tally = tallies[stop.key]
            return (stop.key, StopServices(routes: ranked(tally?.routes ?? [:]), towards: ranked(tally?.towards ?? [:])))
        })
    }

    /// Each route's short name, else its route_id, by key.
    private static func names(ofRoutes keys: Set<Int>, in transit: TransitDatabase) throws -> [Int: String] {
        var names: [Int: String] = [:]
        for feed in transit.selectedFeeds {
            let here = keys.filter { FeedKeys.feed(of: $0) == feed.key }.sorted()
            guard !here.isEmpty else { continue }
            var routes = TransitModel.fetch("routes", feedKey: feed.key)
            routes.filter(routes.key.isIn(here))
            for (name, value) in [("key", routes.key), ("short_name", routes.required("route_short_name")), ("route_id", routes.required("route_id"))] {
                routes.select(value, as: name)
            }
            try transit.database.forEachRow(SQLGenerator.prepare(routes.requiredQuery())) { row in
                let short = row.optionalString("short_name") ?? ""
                names[row.int("key")] = short.isEmpty ? row.string("route_id") : short
            }
        }
        return names
    }

    /// Names by trips, most first (ties in natural order).
    private static func ranked(_ tally: [String: Int]) -> [String] {
        tally.sorted { $0.value != $1.value ? $0.value > $1.value : NaturalOrder.precedes($0.key, $1.key) }.map(\.key)
    }
}
