import FetchRequest

extension Importer {
    /// Loads transfers.txt into the feed's `transfers_<feed>` with its ids as keys. A row naming
    /// a stop, route or trip the feed does not have is skipped and counted; the journey planner
    /// reads the rows that name no route and no trip.
    func loadTransfers() throws {
        let table = Schema.transfers(feedKey)
        let insert = try RowWriter(database, inserting: table)
        var rows = 0
        typealias T = Schema.TransferColumn
        let (stopKeys, routeKeys, tripKeys) = (self.stopKeys, self.routeKeys, self.tripKeys)
        let references: [(field: String, column: T, key: (String) -> Int?, file: String)] = [
            ("from_stop_id", .fromStop, { stopKeys[$0] }, "stops.txt"), ("to_stop_id", .toStop, { stopKeys[$0] }, "stops.txt"),
            ("from_route_id", .fromRoute, { routeKeys[$0] }, "routes.txt"), ("to_route_id", .toRoute, { routeKeys[$0] }, "routes.txt"),
            ("from_trip_id", .fromTrip, { tripKeys[$0] }, "trips.txt"), ("to_trip_id", .toTrip, { tripKeys[$0] }, "trips.txt"),
        ]
        try readFile("transfers.txt", requiring: ["transfer_type"]) { fields, required in
            // "0 or empty": a recommended transfer point.
            let type = try fields.code(required[0], allowed: 0...5) ?? 0
            var keys: [(column: T, key: Int?)] = []
            for (field, column, lookUp, file) in references {
                guard let id = try fields.text(field) else {
                    keys.append((column, nil))
                    continue
                }
                guard let key = lookUp(id) else {
                    report.skip("transfers.txt: \(field) not in \(file)", example: "line \(fields.line): \(field) '\(id)'")
                    return
                }
                keys.append((column, key))
            }
            let minimum = try fields.int("min_transfer_time")
            if let minimum, minimum < 0 { throw fields.error("min_transfer_time", "\(minimum) is negative") }
            try insert.write { row in
                for (column, key) in keys { row[column.rawValue] = key.sqlValue }
                row[T.transferType.rawValue] = .integer(Int64(type))
                row[T.minimumTime.rawValue] = minimum.sqlValue
            }
            rows += 1
        }
        count("transfers", rows)
    }

    /// Writes the journey planner's timetable of the feed (`PlannerTimetableBuilder`) from the
    /// trips gathered while the stop times were loaded, after the interpolation and frequencies.
    func writePlannerTimetable() throws {
        progress?.step("journey planner timetable")
        // Nothing reads the trips' ids and services any more: their memory is the builder's now.
        tripKeys = IdentifierKeys(firstKey: keyBase + 1)
        tripServices = []
        _ = try PlannerTimetableBuilder(database: database, feedKey: feedKey, collected: plannerTrips).build()
        plannerTrips = nil
    }
}
