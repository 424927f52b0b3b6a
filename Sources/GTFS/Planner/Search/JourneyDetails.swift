import FetchRequest

/// The names behind the keys of some journeys' legs: their stops, trips and routes, read in one
/// request each, for writing the journeys out.
public struct JourneyDetails: Sendable {
    public let stops: [Int: Stop]
    public let trips: [Int: Trip]
    public let routes: [Int: Route]

    /// The stops, trips and routes of `journeys` (and of `extraStops`), from `transit`.
    public init(of journeys: [Journey], extraStops: [Int] = [], in transit: TransitDatabase) throws {
        let legs = journeys.flatMap(\.legs)
        let stopKeys = Array(Set(legs.flatMap { [$0.fromStop, $0.toStop].compactMap { $0 } } + extraStops)).sorted()
        let tripKeys = Array(Set(legs.compactMap(\.trip))).sorted()
        var stops: [Int: Stop] = [:]
        for chunk in stride(from: 0, to: stopKeys.count, by: 500) {
            let keys = Array(stopKeys[chunk..<min(chunk + 500, stopKeys.count)])
            for stop in try transit.database.fetch(FetchRequest<Stop>().filter(Stop.column(Stop.columns.key).isIn(keys))) { stops[stop.key] = stop }
        }
        var trips: [Int: Trip] = [:]
        if !tripKeys.isEmpty {
            for trip in try transit.database.fetch(FetchRequest<Trip>().filter(Trip.column(Trip.columns.key).isIn(tripKeys))) { trips[trip.key] = trip }
        }
        let routeKeys = Array(Set(trips.values.map(\.routeKey))).sorted()
        var routes: [Int: Route] = [:]
        if !routeKeys.isEmpty {
            for route in try transit.database.fetch(FetchRequest<Route>().filter(Route.column(Route.columns.key).isIn(routeKeys))) { routes[route.key] = route }
        }
        self.stops = stops
        self.trips = trips
        self.routes = routes
    }

    /// The route a ride's trip belongs to.
    public func route(ofTrip key: Int) -> Route? { trips[key].flatMap { routes[$0.routeKey] } }
}
