import GTFS
import FetchRequest

/// Writes `plan`'s journeys and `reach`'s stops as a table, JSON, CSV or GeoJSON.
///
/// JSON is `{"journeys": [{"departure", "arrival", "rides", "legs": [...]}]}`, each leg with both
/// ends (`from_`/`to_` + `stop_id`, `name`, `platform`, `lat`, `lon`; a point end has null id,
/// name and platform), its times, and for a ride the trip and route (colours, headsign), for a walk
/// its seconds and metres; `reach` is `{"stops": [{"feed", "stop_id", "name", "lat", "lon",
/// "arrival", "minutes", "rides"}]}`. CSV is one row per leg (`journey`, `leg`, then the leg's
/// fields) or per stop reached (the JSON's fields). Times are ISO 8601 with the zone's offset
/// (docs/journeys.md).
struct JourneyOutput {
    let transit: TransitDatabase
    /// The zone every time is written in: that of the origin's feed.
    let zone: AgencyTimeZone
    /// Whether rides list the stops they pass (`plan --stops`): JSON `stops`, lines in the table.
    var listsCalls = false

    /// The zone of the first of `feedKeys` that is a feed (else the first selected feed's).
    static func zone(for feedKeys: [Int?], in transit: TransitDatabase) -> AgencyTimeZone {
        for key in feedKeys.compactMap({ $0 }) {
            if let feed = transit.selectedFeeds.first(where: { $0.key == key }) { return feed.timeZone }
        }
        return transit.selectedFeeds.first?.timeZone ?? AgencyTimeZone(identifier: "UTC")!
    }

    /// `--explain`'s account of the search itself, on stderr: the patterns' and the lower
    /// bounds' reads (one run of a statement per row, reported together) and the search's
    /// counters and phases.
    static func explain(_ planner: JourneyPlanner) throws {
        /// A statement run many times: its first line counts the runs, not one run's rows.
        func report(_ executed: ExecutedRequest, _ title: String) {
            let body = ExplainReport(number: 0, executed: executed).text.drop { $0 != "\n" }
            writeToStandardError("-- \(title) in \(formatDecimal(executed.seconds * 1000, decimals: 3)) ms" + body)
        }
        for executed in try planner.patternReads() {
            report(executed, "pattern reads: \(formatCount(executed.rowCount)) pattern\(executed.rowCount == 1 ? "" : "s"), one run of this statement each (kept for the process),")
        }
        for (executed, runs) in try planner.patternBatchReads() {
            report(executed, "pattern reads in batches: \(formatCount(executed.rowCount)) pattern\(executed.rowCount == 1 ? "" : "s") in \(formatCount(runs)) run\(runs == 1 ? "" : "s") of this statement (kept for the process),")
        }
        for executed in try planner.stopIndexReads() {
            report(executed, "stop index: \(formatCount(executed.rowCount)) block\(executed.rowCount == 1 ? "" : "s") of stops and tiles of the map read, one run of this statement each (kept for the process),")
        }
        for executed in try planner.boundReads() {
            report(executed, "lower bounds: \(formatCount(executed.rowCount)) row\(executed.rowCount == 1 ? "" : "s") read, one run of this statement each (kept for the process),")
        }
        for executed in try planner.realtimeReads() {
            report(executed, "realtime changes: \(formatCount(executed.rowCount)) call\(executed.rowCount == 1 ? "" : "s") of runs realtime data may change looked up, one run of this statement each,")
        }
        let c = planner.lastCounters
        let realtime = c.realtimeRunsRead > 0
            ? ", \(formatCount(c.realtimeRunsRead)) runs' realtime changes read in \(formatDecimal(c.realtimeSeconds * 1000, decimals: 3)) ms" : ""
        writeToStandardError("""
            -- journey search: \(c.searches) search\(c.searches == 1 ? "" : "es"), \(c.rounds) round\(c.rounds == 1 ? "" : "s"), \
            \(formatCount(c.routesScanned)) pattern scans, \(formatCount(c.labelsImproved)) labels improved, \
            \(formatCount(c.patternsRead)) patterns read (\(formatCount(c.bytesRead)) bytes) in \(formatDecimal(c.readSeconds * 1000, decimals: 3)) ms\
            \(realtime); \(formatDecimal(c.searchSeconds * 1000, decimals: 3)) ms in all

            """)
    }

    private func iso(_ instant: Int) -> String { zone.localTime(of: instant).iso8601 }
    private func clock(_ instant: Int) -> String { zone.localTime(of: instant).hourMinute }

    // MARK: Journeys

    /// One answer as a batch writes it: JSON (one line) or the table.
    func renderAnswer(_ journeys: [Journey], as format: OutputFormat, origin: JourneyEnd, destination: JourneyEnd) throws -> String {
        try render(journeys, as: format == .json ? .json : .table, origin: origin, destination: destination)
    }

    func render(_ journeys: [Journey], as format: OutputFormat, origin: JourneyEnd, destination: JourneyEnd) throws -> String {
        let details = try JourneyDetails(of: journeys, extraStops: listsCalls ? journeys.flatMap(\.legs).flatMap(\.path) : [], in: transit)
        switch format {
        case .json: return json(journeys, details: details, origin: origin, destination: destination) + "\n"
        case .geojson: return geoJSON(journeys, details: details, origin: origin, destination: destination) + "\n"
        case .csv: return csv(journeys, details: details, origin: origin, destination: destination)
        case .table: return table(journeys, details: details, origin: origin, destination: destination)
        }
    }

    private func stopID(_ key: Int?, _ details: JourneyDetails) -> String {
        guard let key, let stop = details.stops[key] else { return "null" }
        return JSONText.quote(stop.stopID)
    }

    /// One end of a leg as JSON fields named `prefix_…`: the stop's id, name, position and
    /// platform, or for a point end (`point`, the place typed) a null id and name and the point's position.
    private func end(_ prefix: String, _ key: Int?, _ details: JourneyDetails, point: JourneyEnd) -> String {
        var latitude: Double?, longitude: Double?
        var fields = "\"\(prefix)_stop_id\": \(stopID(key, details)), "
        if let key, let stop = details.stops[key] {
            (latitude, longitude) = (stop.latitude, stop.longitude)
            fields += "\"\(prefix)_name\": \(JSONText.quote(stop.name)), \"\(prefix)_platform\": \(stop.platformCode.map(JSONText.quote) ?? "null"), "
        } else {
            if case let .point(lat, lon) = point.place { (latitude, longitude) = (lat, lon) }
            fields += "\"\(prefix)_name\": null, \"\(prefix)_platform\": null, "
        }
        return fields + "\"\(prefix)_lat\": \(latitude.map { formatDecimal($0, decimals: 7) } ?? "null"), "
            + "\"\(prefix)_lon\": \(longitude.map { formatDecimal($0, decimals: 7) } ?? "null")"
    }

    private func json(_ journeys: [Journey], details: JourneyDetails, origin: JourneyEnd, destination: JourneyEnd) -> String {
        let items = journeys.map { journey -> String in
            let legs = journey.legs.enumerated().map { position, leg -> String in
                let ends = end("from", leg.fromStop, details, point: position == 0 ? origin : destination) + ", "
                    + end("to", leg.toStop, details, point: destination)
                switch leg.mode {
                case .ride:
                    let trip = leg.trip.flatMap { details.trips[$0] }
                    let route = leg.trip.flatMap { details.route(ofTrip: $0) }
                    let feed = leg.trip.map { transit.feedName(ofKey: $0) } ?? ""
                    return "{\"mode\": \"ride\", \"feed\": \(JSONText.quote(feed)), \"trip_id\": \(JSONText.quote(trip?.tripID ?? "")), "
                        + "\"route_id\": \(JSONText.quote(route?.routeID ?? "")), \"route_short_name\": \(route?.shortName.map(JSONText.quote) ?? "null"), "
                        + "\"route_long_name\": \(route?.longName.map(JSONText.quote) ?? "null"), \"\(Route.Columns.color.name)\": \(route?.color.map(JSONText.quote) ?? "null"), "
                        + "\"\(Route.Columns.textColor.name)\": \(route?.textColor.map(JSONText.quote) ?? "null"), \"headsign\": \(trip?.headsign.map(JSONText.quote) ?? "null"), "
                        + ends + ", \"departure\": \(JSONText.quote(iso(leg.departure))), \"arrival\": \(JSONText.quote(iso(leg.arrival))), "
                        + "\"realtime\": \(leg.isRealtime)" + (listsCalls ? ", \"stops\": " + callsJSON(leg, details) : "") + "}"
                case .walk:
                    return "{\"mode\": \"walk\", " + ends + ", \"departure\": \(JSONText.quote(iso(leg.departure))), "
                        + "\"arrival\": \(JSONText.quote(iso(leg.arrival))), \"seconds\": \(leg.seconds), \"metres\": \(leg.metres)}"
                }
            }
            return "{\"departure\": \(JSONText.quote(iso(journey.departure))), \"arrival\": \(JSONText.quote(iso(journey.arrival))), "
                + "\"rides\": \(journey.rides), \"legs\": [" + legs.joined(separator: ", ") + "]}"
        }
        return "{\"journeys\": [" + items.joined(separator: ", ") + "]}"
    }

    /// A ride's calls as JSON: each stop's id, name, position, arrival and departure.
    private func callsJSON(_ leg: JourneyLeg, _ details: JourneyDetails) -> String {
        "[" + leg.calls.map { call in
            let stop = details.stops[call.stop]
            return "{\"stop_id\": \(stop.map { JSONText.quote($0.stopID) } ?? "null"), \"name\": \(stop.map { JSONText.quote($0.name) } ?? "null"), "
                + "\"lat\": \(stop?.latitude.map { formatDecimal($0, decimals: 7) } ?? "null"), \"lon\": \(stop?.longitude.map { formatDecimal($0, decimals: 7) } ?? "null"), "
                + "\"arrival\": \(JSONText.quote(iso(call.arrival))), \"departure\": \(JSONText.quote(iso(call.departure)))}"
        }.joined(separator: ", ") + "]"
    }

    /// A CSV line of `values` (RFC 4180, CRLF, as every command's CSV).
    private func csvLine(_ values: [OutputValue]) -> String { values.map(\.csv).joined(separator: ",") + "\r\n" }

    /// One end of a leg as CSV values: stop_id, name, lat, lon (a point end: empty id and name).
    private func endValues(_ key: Int?, _ details: JourneyDetails, point: JourneyEnd) -> [OutputValue] {
        if let key, let stop = details.stops[key] {
            return [.text(stop.stopID), .text(stop.name), stop.latitude.map { .number($0, decimals: 7) } ?? .null,
                    stop.longitude.map { .number($0, decimals: 7) } ?? .null]
        }
        guard case let .point(latitude, longitude) = point.place else { return [.null, .null, .null, .null] }
        return [.null, .null, .number(latitude, decimals: 7), .number(longitude, decimals: 7)]
    }

    /// One row per leg: the journey's and the leg's number, then the leg as JSON has it (flat).
    private func csv(_ journeys: [Journey], details: JourneyDetails, origin: JourneyEnd, destination: JourneyEnd) -> String {
        var text = "journey,leg,mode,departure,arrival,from_stop_id,from_name,from_lat,from_lon,to_stop_id,to_name,to_lat,to_lon,"
            + "feed,trip_id,route_id,route_short_name,headsign,metres\r\n"
        for (index, journey) in journeys.enumerated() {
            for (position, leg) in journey.legs.enumerated() {
                let trip = leg.trip.flatMap { details.trips[$0] }
                let route = leg.trip.flatMap { details.route(ofTrip: $0) }
                let ride: [OutputValue] = leg.mode == .ride
                    ? [.text(leg.trip.map { transit.feedName(ofKey: $0) } ?? ""), .text(trip?.tripID ?? ""), .text(route?.routeID ?? ""),
                       route?.shortName.map { .text($0) } ?? .null, trip?.headsign.map { .text($0) } ?? .null, .null]
                    : [.null, .null, .null, .null, .null, .integer(leg.metres)]
                text += csvLine([.integer(index + 1), .integer(position + 1), .text(leg.mode.rawValue), .text(iso(leg.departure)), .text(iso(leg.arrival))]
                                + endValues(leg.fromStop, details, point: position == 0 ? origin : destination)
                                + endValues(leg.toStop, details, point: destination) + ride)
            }
        }
        return text
    }

    private func name(_ key: Int?, _ details: JourneyDetails, point: JourneyEnd) -> String {
        guard let key, let stop = details.stops[key] else { return point.text }
        return stop.name.isEmpty ? stop.stopID : stop.name
    }

    private func table(_ journeys: [Journey], details: JourneyDetails, origin: JourneyEnd, destination: JourneyEnd) -> String {
        let style = TableStyle.current
        var lines: [String] = []
        for (index, journey) in journeys.enumerated() {
            // One rounding rule: clock times are shown to the minute rounded down, and every
            // duration is the difference of the clock times shown, so the lines add up.
            let minutes = Self.minutes(from: journey.departure, to: journey.arrival)
            let rides = journey.rides == 1 ? "1 ride" : "\(journey.rides) rides"
            lines.append("\(style.color ? CellStyle.bold : "")Journey \(index + 1): \(clock(journey.departure)) → \(clock(journey.arrival)), \(minutes) min, \(rides)\(style.color ? CellStyle.reset : "")")
            for (position, leg) in journey.legs.enumerated() {
                let from = name(leg.fromStop, details, point: position == 0 ? origin : destination)
                let to = name(leg.toStop, details, point: destination)
                switch leg.mode {
                case .ride:
                    let route = leg.trip.flatMap { details.route(ofTrip: $0) }
                    let label = route?.shortName ?? route?.longName ?? route?.routeID ?? "?"
                    let badge = style.color ? CellStyle.badge(RouteColors(color: route?.color, textColor: route?.textColor)).escape + " \(label) " + CellStyle.reset
                                            : label
                    lines.append("  \(clock(leg.departure))  \(badge)  \(from) → \(to)  (arrives \(clock(leg.arrival)))")
                    if listsCalls {
                        // The stops passed between boarding and alighting, at their departure times.
                        for call in leg.calls.dropFirst().dropLast() {
                            lines.append("           \(clock(call.departure))  \(name(call.stop, details, point: destination))")
                        }
                    }
                case .walk:
                    let walkMinutes = Self.minutes(from: leg.departure, to: leg.arrival)
                    lines.append("  \(clock(leg.departure))  walk \(formatDistance(Double(leg.metres))), \(walkMinutes == 0 ? "<1" : String(walkMinutes)) min  \(from) → \(to)")
                }
            }
            lines.append("")
        }
        if !lines.isEmpty { lines.removeLast() }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// The whole minutes between the clock times shown for `start` and `end` (each rounded down).
    static func minutes(from start: Int, to end: Int) -> Int {
        Int((Double(end) / 60).rounded(.down)) - Int((Double(start) / 60).rounded(.down))
    }

    /// A GeoJSON position: `[longitude, latitude]` to 6 decimals (about 0.1 m).
    private func geoPosition(_ latitude: Double, _ longitude: Double) -> String {
        "[\(formatDecimal(longitude, decimals: 6)), \(formatDecimal(latitude, decimals: 6))]"
    }

    private func coordinate(_ key: Int?, _ details: JourneyDetails, point: JourneyEnd) -> String? {
        if let key, let stop = details.stops[key], let latitude = stop.latitude, let longitude = stop.longitude {
            return geoPosition(latitude, longitude)
        }
        if case let .point(latitude, longitude) = point.place {
            return geoPosition(latitude, longitude)
        }
        return nil
    }

    /// A ride's positions along its trip's shape (`RidePath`), nil when they cannot be read.
    private func ridePositions(_ leg: JourneyLeg) -> [String]? {
        guard let trip = leg.trip, let path = try? RidePath(trip: trip, calls: leg.path, in: transit), path.points.count >= 2 else { return nil }
        return path.points.map { geoPosition($0.latitude, $0.longitude) }
    }

    /// Each leg a LineString: a ride along its trip's shape between its first and last calls
    /// (`RidePath`; through its calls' stops when the trip has no usable shape), a walk straight
    /// between its ends.
    private func geoJSON(_ journeys: [Journey], details: JourneyDetails, origin: JourneyEnd, destination: JourneyEnd) -> String {
        var features: [String] = []
        let pathDetails = (try? JourneyDetails(of: [], extraStops: journeys.flatMap(\.legs).flatMap(\.path), in: transit)) ?? details
        // The same ride can be in several journeys: each is read once.
        var rides: [[Int]: [String]] = [:]
        for (index, journey) in journeys.enumerated() {
            for (position, leg) in journey.legs.enumerated() {
                var points: [String] = []
                if leg.mode == .ride {
                    let ride = [leg.trip ?? -1] + leg.path
                    if rides[ride] == nil {
                        rides[ride] = ridePositions(leg) ?? leg.path.compactMap { coordinate($0, pathDetails, point: origin) }
                    }
                    points = rides[ride] ?? []
                } else {
                    let start = coordinate(leg.fromStop, details, point: position == 0 ? origin : destination)
                    let end = coordinate(leg.toStop, details, point: destination)
                    points = [start, end].compactMap { $0 }
                }
                guard points.count >= 2 else { continue }
                let route = leg.trip.flatMap { details.route(ofTrip: $0) }
                var properties = "\"journey\": \(index + 1), \"leg\": \(position + 1), \"mode\": \"\(leg.mode.rawValue)\", "
                    + "\"departure\": \(JSONText.quote(iso(leg.departure))), \"arrival\": \(JSONText.quote(iso(leg.arrival)))"
                if let route {
                    properties += ", \"route_short_name\": \(route.shortName.map(JSONText.quote) ?? "null")"
                    if let color = route.color { properties += ", \"stroke\": \(JSONText.quote("#" + color))" }
                }
                if leg.mode == .walk { properties += ", \"metres\": \(leg.metres)" }
                features.append("{\"type\": \"Feature\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": [\(points.joined(separator: ", "))]}, \"properties\": {\(properties)}}")
            }
        }
        return "{\"type\": \"FeatureCollection\", \"features\": [" + features.joined(separator: ",\n") + "]}"
    }

    // MARK: Reach

    func render(_ reached: [ReachedStop], start: Int, as format: OutputFormat) throws -> String {
        let details = try JourneyDetails(of: [], extraStops: reached.map(\.stop), in: transit)
        switch format {
        case .json:
            // The bytes grown in place: a reach lists a thousand stops or more, and building each
            // from interpolated strings and joining them cost as much as the search (callgrind).
            var text: [UInt8] = []
            text.reserveCapacity(16 + reached.count * 200)
            text += "{\"stops\": [".utf8
            for (index, stop) in reached.enumerated() {
                let record = details.stops[stop.stop]
                text += (index == 0 ? "{\"feed\": " : ", {\"feed\": ").utf8
                text += JSONText.quote(transit.feedName(ofKey: stop.stop)).utf8
                text += ", \"stop_id\": ".utf8
                text += stopID(stop.stop, details).utf8
                text += ", \"name\": ".utf8
                text += (record.map { JSONText.quote($0.name) } ?? "null").utf8
                text += ", \"lat\": ".utf8
                text += (record?.latitude.map { formatDecimal($0, decimals: 7) } ?? "null").utf8
                text += ", \"lon\": ".utf8
                text += (record?.longitude.map { formatDecimal($0, decimals: 7) } ?? "null").utf8
                text += ", \"arrival\": \"".utf8
                text += iso(stop.arrival).utf8
                text += "\", \"minutes\": ".utf8
                text += String((stop.arrival - start) / 60).utf8
                text += ", \"rides\": ".utf8
                text += String(stop.rides).utf8
                text += "}".utf8
            }
            text += "]}\n".utf8
            return String(decoding: text, as: UTF8.self)
        case .geojson:
            let features = reached.compactMap { stop -> String? in
                guard let record = details.stops[stop.stop], let latitude = record.latitude, let longitude = record.longitude else { return nil }
                return "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [\(formatDecimal(longitude, decimals: 6)), \(formatDecimal(latitude, decimals: 6))]}, "
                    + "\"properties\": {\"stop_id\": \(JSONText.quote(record.stopID)), \"stop_name\": \(JSONText.quote(record.name)), "
                    + "\"arrival\": \(JSONText.quote(iso(stop.arrival))), \"minutes\": \((stop.arrival - start) / 60), \"rides\": \(stop.rides)}}"
            }
            return "{\"type\": \"FeatureCollection\", \"features\": [" + features.joined(separator: ",\n") + "]}\n"
        case .csv:
            return "feed,stop_id,name,lat,lon,arrival,minutes,rides\r\n" + reached.map { stop in
                let record = details.stops[stop.stop]
                return csvLine([.text(transit.feedName(ofKey: stop.stop)), record.map { .text($0.stopID) } ?? .null, record.map { .text($0.name) } ?? .null,
                                record?.latitude.map { .number($0, decimals: 7) } ?? .null, record?.longitude.map { .number($0, decimals: 7) } ?? .null,
                                .text(iso(stop.arrival)), .integer((stop.arrival - start) / 60), .integer(stop.rides)])
            }.joined()
        case .table:
            guard !reached.isEmpty else { return "" }
            var rows = [["Arrival", "Min", "Rides", "Stop", "stop_id"]]
            for stop in reached {
                let record = details.stops[stop.stop]
                rows.append([clock(stop.arrival), String((stop.arrival - start) / 60), String(stop.rides), record?.name ?? "", record?.stopID ?? ""])
            }
            let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
            return rows.map { row in
                row.enumerated().map { column, cell in
                    let pad = String(repeating: " ", count: widths[column] - cell.count)
                    return column == 1 || column == 2 ? pad + cell : cell + pad
                }.joined(separator: "  ").trimmingTrailingSpaces
            }.joined(separator: "\n") + "\n"
        }
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
