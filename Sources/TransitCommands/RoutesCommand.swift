import ArgumentParser
import GTFS

/// `transit routes`: the lines of the feeds, of a stop, or near a point.
struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        _superCommandName: "transit",
        abstract: "List routes: all of them, those calling at a stop, or near a point.",
        discussion: """
            Order: route_sort_order, then route_short_name in natural order (2 before 10), then route_id. With --stop, the routes with at least one trip calling at the stop (a station: at its platforms); with --near, at any boarding point in the radius. --type takes a name (tram, subway, rail, bus, ferry, cable tram, aerial lift, funicular, trolleybus, monorail, coach, air, taxi: extended types count as their kind) or a number.
            Examples: transit routes --stop HBF
                      transit routes --near 54.687,25.28 --radius 300 --type bus
            """,
        version: TransitCommand.version
    )

    @OptionGroup var stops: StopChoiceOptions

    @Option(name: .long, help: ArgumentHelp("Only routes of this type: a name (bus, tram, rail, …) or a route_type number.", valueName: "type"))
    var type: String?

    @OptionGroup var options: QueryOptions

    func validate() throws {
        if let type, Int(type) == nil, !RouteType.names.contains(type.lowercased()) {
            throw ValidationError("--type takes a route_type number or one of \(RouteType.names.joined(separator: ", ")); got '\(type)'")
        }
        if options.format == .geojson { throw ValidationError("routes have no single place to map: use --format table, json or csv (transit trip ID --format geojson draws a trip)") }
    }

    func run() throws {
        let transit = try options.open()
        var listing = RouteListing()
        listing.typeFilter = type
        listing.stopKeys = try stops.boardingKeys(in: transit, format: options.format)
        let routes = try listing.run(on: transit)
        let place = stops.place.map { " calling at \($0)" } ?? ""
        options.write(routes.map(ListedRoute.init), from: transit, emptyMessage: "No routes\(place)" + (type.map { " of type \($0)" } ?? ""))
    }
}

extension RoutesCommand: DirectlyReadableCommand {
    static func withDefaults() -> RoutesCommand {
        var command = RoutesCommand()
        command.stops = .withDefaults()
        command.type = nil
        command.options = .withDefaults()
        return command
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        name == "type" ? line.set(&type) : stops.read(option: name, from: &line) ?? options.read(option: name, from: &line)
    }

    mutating func validateAll() throws {
        try stops.validateAll()
        try options.validateAll()
        try validate()
    }
}

/// A route as `routes` prints it.
struct ListedRoute: OutputRecord {
    let route: RouteSummary
    init(_ route: RouteSummary) { self.route = route }
    var feed: String { route.feed }

    static let fieldNames = ["route_id", "agency", "short_name", "long_name", "type", "route_type", "color", "text_color", "trips"]
    var fieldValues: [OutputValue] {
        [.text(route.routeID), route.agency.map { .text($0) } ?? .null, .text(route.shortName), .text(route.longName),
         .text(route.typeName), .integer(route.type), route.color.map { .text($0) } ?? .null,
         route.textColor.map { .text($0) } ?? .null, .integer(route.trips)]
    }
    var coordinate: (latitude: Double, longitude: Double)? { nil }
    static let tableHeaders = ["Route", "Name", "Type", "Trips", "route_id"]
    static let rightAligned: Set<Int> = [3]
    var tableCells: [String] {
        [route.shortName, route.longName, route.typeName, formatCount(route.trips), route.routeID]
    }
    static let truncatable: Set<Int> = [1]
    /// The route as a badge in its colours.
    var tableStyles: [CellStyle] {
        [.badge(RouteColors(color: route.color, textColor: route.textColor)), .none, .none, .none, .none]
    }
}
