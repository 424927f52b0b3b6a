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
