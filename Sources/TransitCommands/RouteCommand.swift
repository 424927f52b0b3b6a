import ArgumentParser
import GTFS

/// `transit route ROUTE_ID`: where a line runs, direction by direction.
struct RouteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        _superCommandName: "transit",
        abstract: "Show a route: per direction the stop pattern most trips follow, every pattern's trips, and each day type's first and last departure.",
        discussion: """
            Patterns are the sequences of stops the route's trips call at, per direction_id; the main one is followed by the most trips (ties: the pattern whose first trip_id sorts first). Day types are the trips' services, with the first and last departure from a trip's first stop. --format geojson draws the distinct shapes of its trips (else each direction's main pattern through its stops), with the route's colours as properties; csv lists the main patterns' stops.
            Examples: transit route R1
                      transit route vilnius:42 --format geojson > line.geojson
            """,
        version: TransitCommand.version
    )

    @Argument(help: ArgumentHelp("The route: route_id, or FEED:route_id when several feeds have it.", valueName: "route-id"))
    var routeID: String

    @OptionGroup var options: QueryOptions

    func run() throws {
        let transit = try options.open()
        let route: RoutePatterns
        do {
            route = try RoutePatterns(named: routeID, in: transit)
        } catch let error as TransitError {
            throw usageError(error)
        }
        switch options.format {
        case .json: writeToStandardOutput(try json(route, transit))
        case .csv: writeToStandardOutput(csv(route))
        case .geojson: writeToStandardOutput(geoJSON(route))
        case .table: writeToStandardOutput(try table(route, transit))
        }
    }

    private func time(_ seconds: Int?) -> String { seconds.map(GTFSTime.format) ?? "" }

    private func table(_ route: RoutePatterns, _ transit: TransitDatabase) throws -> String {
        let summary = route.route
        let name = [summary.shortName, summary.longName].filter { !$0.isEmpty }.joined(separator: " ")
        var lines = ["Route \(name.isEmpty ? summary.routeID : name) (\(summary.typeName))" + (transit.feeds.count > 1 ? ", feed \(route.feed.name)" : "")
                     + (summary.agency.map { ", \($0)" } ?? "") + ": \(formatCount(summary.trips)) trips"]
        if route.directions.isEmpty { lines.append("No trips.") }
        for direction in route.directions {
            lines.append("")
            lines.append("Direction \(direction.directionID.map(String.init) ?? "(none)")" + (direction.name.map { " (\($0))" } ?? "")
                         + ": \(formatCount(direction.trips)) trips")
            if let main = direction.main {
                lines.append("  Main pattern (\(main.trips) trips): " + main.stops.map(\.name).joined(separator: " → "))
            }
            for pattern in direction.patterns {
                lines.append("  \(pattern.trips) trip\(pattern.trips == 1 ? "" : "s"): \(pattern.stops.first?.name ?? "") → \(pattern.stops.last?.name ?? "") (\(pattern.stops.count) stops, first trip \(pattern.firstTripID))")
            }
            for day in direction.dayTypes {
                lines.append("  \(try TripDetails.describeService(key: day.serviceKey, id: day.serviceID, in: transit)): \(day.trips) trips, first \(time(day.firstDeparture)), last \(time(day.lastDeparture))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func stopJSON(_ stop: RoutePatterns.PatternStop) -> String {
        "{\"stop_id\": " + JSONText.quote(stop.stopID) + ", \"name\": " + JSONText.quote(stop.name) + ", \"lat\": "
            + (stop.latitude.map { formatDecimal($0, decimals: 7) } ?? "null") + ", \"lon\": " + (stop.longitude.map { formatDecimal($0, decimals: 7) } ?? "null") + "}"
    }

    private func json(_ route: RoutePatterns, _ transit: TransitDatabase) throws -> String {
        let summary = ListedRoute(route.route)
        var object = OutputRenderer.jsonObject(summary)
        object.removeLast()
        let directions = try route.directions.map { direction -> String in
            let patterns = direction.patterns.map { pattern in
                "{\"trips\": \(pattern.trips), \"first_trip_id\": " + JSONText.quote(pattern.firstTripID) + ", \"stops\": [" + pattern.stops.map(stopJSON).joined(separator: ", ") + "]}"
            }
            let days = try direction.dayTypes.map { day in
                "{\"service_id\": " + JSONText.quote(day.serviceID) + ", \"days\": " + JSONText.quote(try TripDetails.describeService(key: day.serviceKey, id: day.serviceID, in: transit))
                    + ", \"trips\": \(day.trips), \"first_departure\": " + (day.firstDeparture.map { JSONText.quote(GTFSTime.format($0)) } ?? "null")
                    + ", \"last_departure\": " + (day.lastDeparture.map { JSONText.quote(GTFSTime.format($0)) } ?? "null") + "}"
            }
            return "{\"direction_id\": " + (direction.directionID.map(String.init) ?? "null") + ", \"direction\": " + (direction.name.map(JSONText.quote) ?? "null")
                + ", \"trips\": \(direction.trips), \"patterns\": ["
                + patterns.joined(separator: ", ") + "], \"day_types\": [" + days.joined(separator: ", ") + "]}"
        }
        return object + ", \"directions\": [" + directions.joined(separator: ", ") + "]}\n"
    }

    private func csv(_ route: RoutePatterns) -> String {
        var rows = ["feed,route_id,direction_id,direction,position,stop_id,stop_name,pattern_trips"]
        for direction in route.directions {
            guard let main = direction.main else { continue }
            let directionID: OutputValue = direction.directionID.map { .integer($0) } ?? .null
            let directionName: OutputValue = direction.name.map { .text($0) } ?? .null
            for (position, stop) in main.stops.enumerated() {
                rows.append([OutputValue.text(route.feed.name), .text(route.route.routeID), directionID, directionName, .integer(position + 1), .text(stop.stopID), .text(stop.name), .integer(main.trips)].map(\.csv).joined(separator: ","))
            }
        }
        return rows.joined(separator: "\r\n") + "\r\n"
    }

    private func geoJSON(_ route: RoutePatterns) -> String {
        func line(_ points: [(latitude: Double, longitude: Double)], _ extra: [String]) -> String {
            let properties = ["\"feed\": " + JSONText.quote(route.feed.name), "\"route_id\": " + JSONText.quote(route.route.routeID),
                              "\"" + Route.Columns.color.name + "\": " + (route.route.color.map(JSONText.quote) ?? "null"),
                              "\"" + Route.Columns.textColor.name + "\": " + (route.route.textColor.map(JSONText.quote) ?? "null")] + extra
            return "    {\"type\": \"Feature\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": ["
                + points.map { "[" + formatDecimal($0.longitude, decimals: 7) + ", " + formatDecimal($0.latitude, decimals: 7) + "]" }.joined(separator: ", ")
                + "]}, \"properties\": {" + properties.joined(separator: ", ") + "}}"
        }
        var features = route.shapes.map { line($0.points, ["\"shape_id\": " + JSONText.quote($0.shapeID)]) }
        if features.isEmpty {
            for direction in route.directions {
                guard let main = direction.main else { continue }
                let points = main.stops.compactMap { stop in stop.latitude.flatMap { lat in stop.longitude.map { (latitude: lat, longitude: $0) } } }
                features.append(line(points, ["\"direction_id\": " + (direction.directionID.map(String.init) ?? "null"), "\"path\": \"stops\""]))
            }
        }
        return "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}\n"
    }
}

extension RouteCommand: DirectlyReadableCommand {
    static func withDefaults() -> RouteCommand {
        var command = RouteCommand()
        command.routeID = ""
        command.options = .withDefaults()
        return command
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        options.read(option: name, from: &line)
    }

    static var positionalArguments: ClosedRange<Int> { 1...1 }

    mutating func read(argument: String) {
        routeID = argument
    }

    mutating func validateAll() throws {
        try options.validateAll()
        try validate()
    }
}
