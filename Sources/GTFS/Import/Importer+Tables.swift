import FetchRequest
#if canImport(Glibc)
import Glibc
#endif

/// One loader per GTFS file, in the order references need: agencies, stops, routes, calendars,
/// trips, stop times, then the optional files.
extension Importer {
    func loadAgencies() throws {
        let insert = try ImportRow.statement(into: Schema.agency, in: database)
        var rows = 0
        var copied: CopiedFields?
        try readFile("agency.txt", requiring: ["agency_name", "agency_timezone", "agency_url"]) { fields, _ in
            let plain = copied ?? CopiedFields(entity: "agency", table: Schema.agency, header: fields.table,
                                               except: ["agency_id", "agency_name", "agency_timezone"])
            copied = plain
            let agencyID = try fields.text("agency_id") ?? ""
            let zoneName = try fields.requiredText("agency_timezone")
            guard let zone = AgencyTimeZone(identifier: zoneName) else {
                throw fields.error("agency_timezone", "'\(zoneName)' is not a time zone of the tz database (like Europe/Vilnius); is tzdata installed?")
            }
            if let existing = timeZone, existing != zone {
                report.skip("agency.txt: agency_timezone differs from the first agency's (\(existing.identifier) is used)",
                            example: "line \(fields.line): \(zoneName)")
            }
            if timeZone == nil { timeZone = zone }
            if agencyKeys[agencyID] != nil {
                report.skip("agency.txt: duplicate agency_id", example: "line \(fields.line): agency_id '\(agencyID)'")
                return
            }
            let name = try fields.requiredText("agency_name")
            let key = keyBase + rows + 1
            var row = ImportRow(Schema.agency)
            row["id"] = .integer(Int64(key))
            row["feed"] = .integer(Int64(feedKey))
            row["agency_id"] = .text(agencyID)
            row["agency_name"] = .text(name)
            row["agency_timezone"] = .text(zoneName)
            try plain.copy(from: fields, into: &row)
            try insert.bind(row.values)
            try insert.run()
            agencyKeys[agencyID] = key
            agencyNames.append(name)
            rows += 1
        }
        guard rows > 0 else { throw FeedError(file: "agency.txt", message: "has a header but no agency; the feed needs one to know its time zone") }
        count("agency", rows)
    }

    func loadStops() throws {
        let insert = try ImportRow.statement(into: Schema.stops, in: database)
        var namedStops: [(key: Int, stopID: String, normalizedName: String, locationType: Int)] = []
        var pendingParents: [(key: Int, parent: String, line: Int)] = []
        var rows = 0
        var copied: CopiedFields?
        try readFile("stops.txt", requiring: ["stop_id", "stop_name", "stop_lat", "stop_lon"]) { fields, _ in
            let plain = copied ?? CopiedFields(entity: "stops", table: Schema.stops, header: fields.table,
                                               except: ["stop_id", "stop_name", "parent_station"])
            copied = plain
            let stopID = try fields.requiredText("stop_id")
            if stopKeys[stopID] != nil {
                report.skip("stops.txt: duplicate stop_id", example: "line \(fields.line): stop_id '\(stopID)'")
                return
            }
            let locationType = try fields.code("location_type", allowed: 0...4) ?? 0
            let latitude = try fields.double("stop_lat")
            let longitude = try fields.double("stop_lon")
            if locationType <= 2 {
                // Stops, stations and entrances must be on the map.
                guard let latitude else {
                    throw FeedError(file: "stops.txt", line: fields.line, field: "stop_lat",
                                    message: "is empty but required for location_type \(locationType)")
                }
                guard longitude != nil else {
                    throw FeedError(file: "stops.txt", line: fields.line, field: "stop_lon",
                                    message: "is empty but required for location_type \(locationType)")
                }
                _ = latitude
            }
            if let latitude, !(-90.0...90.0).contains(latitude) {
                throw FeedError(file: "stops.txt", line: fields.line, field: "stop_lat", message: "\(latitude) is outside [-90, 90]")
            }
            if let longitude, !(-180.0...180.0).contains(longitude) {
                throw FeedError(file: "stops.txt", line: fields.line, field: "stop_lon", message: "\(longitude) is outside [-180, 180]")
            }
            let name = try fields.text("stop_name")
            let normalized = NameNormalizer.normalize(name ?? "")
            let key = keyBase + rows + 1
            var row = ImportRow(Schema.stops)
            row["id"] = .integer(Int64(key))
            row["feed"] = .integer(Int64(feedKey))
            row["stop_id"] = .text(stopID)
            row["stop_name"] = name.sqlValue
            row["normalized_name"] = .text(normalized)
            row["stop_lat"] = latitude.sqlValue
            row["stop_lon"] = longitude.sqlValue
            row["location_type"] = .integer(Int64(locationType))
            row["wheelchair_boarding"] = try fields.code("wheelchair_boarding", allowed: 0...2).sqlValue
            try plain.copy(from: fields, into: &row)
            try insert.bind(row.values)
            try insert.run()
            stopKeys[stopID] = key
            if let parent = try fields.text("parent_station") { pendingParents.append((key, parent, fields.line)) }
            namedStops.append((key, stopID, normalized, locationType))
            rows += 1
        }
        guard rows > 0 else { throw FeedError(file: "stops.txt", message: "has a header but no stops") }
        let stopsEntity = TransitModel.entity("stops")
        let setParent = try database.makeStatement(UpdateDefinition(Schema.stops.name, set: [stopsEntity.keyColumn(of: "parent_station")],
                                                                    where: stopsEntity.keyColumn).sql)
        var parents: [Int: Int] = [:]
        for pending in pendingParents {
            guard let parentKey = stopKeys[pending.parent], parentKey != pending.key else {
                let what = stopKeys[pending.parent] == nil ? "not in stops.txt" : "the stop itself"
                report.skip("stops.txt: parent_station \(what) (stop kept without a parent)",
                            example: "line \(pending.line): parent_station '\(pending.parent)'")
                continue
            }
            try setParent.bind([.integer(Int64(parentKey)), .integer(Int64(pending.key))])
            try setParent.run()
            parents[pending.key] = parentKey
        }
        let prefixes = try StopNamePrefixes.write(namedStops.map {
            StopNamePrefixes.NamedStop(key: $0.key, stopID: $0.stopID, normalizedName: $0.normalizedName,
                                       locationType: $0.locationType, parent: parents[$0.key])
        }, into: database)
        count("stops", rows)
        count("stop_name_prefixes", prefixes)
    }

    func loadRoutes() throws {
        let insert = try ImportRow.statement(into: Schema.routes, in: database)
        var rows = 0
        var copied: CopiedFields?
        let onlyAgency = agencyKeys.count == 1 ? agencyKeys.values.first : nil
        try readFile("routes.txt", requiring: ["route_id", "route_type"]) { fields, _ in
            if copied == nil {
                if fields.table.optional("route_short_name") == nil && fields.table.optional("route_long_name") == nil {
                    throw FeedError(file: "routes.txt", message: "missing required column route_short_name or route_long_name (GTFS needs one of them)")
                }
                copied = CopiedFields(entity: "routes", table: Schema.routes, header: fields.table, except: ["route_id"])
            }
            let routeID = try fields.requiredText("route_id")
            if routeKeys[routeID] != nil {
                report.skip("routes.txt: duplicate route_id", example: "line \(fields.line): route_id '\(routeID)'")
                return
            }
            var agency = onlyAgency
            if let agencyID = try fields.text("agency_id") {
                guard let key = agencyKeys[agencyID] else {
                    report.skip("routes.txt: agency_id not in agency.txt", example: "line \(fields.line): agency_id '\(agencyID)'")
                    return
                }
                agency = key
            }
            guard let routeType = try fields.int("route_type") else { throw fields.error("route_type", "is empty but required") }
            let key = keyBase + rows + 1
            var row = ImportRow(Schema.routes)
            row["id"] = .integer(Int64(key))
            row["feed"] = .integer(Int64(feedKey))
            row["route_id"] = .text(routeID)
            row["agency"] = agency.sqlValue
            row["route_type"] = .integer(Int64(routeType))
            row["route_sort_order"] = try fields.int("route_sort_order").sqlValue
            try copied?.copy(from: fields, into: &row)
            try insert.bind(row.values)
            try insert.run()
            routeKeys[routeID] = key
            rows += 1
        }
        guard rows > 0 else { throw FeedError(file: "routes.txt", message: "has a header but no routes") }
        count("routes", rows)
    }

    /// Loads calendar.txt and calendar_dates.txt, then expands them into `service_days`: one row
    /// per date a service runs.
    func loadCalendars() throws {
        let insertService = try database.makeStatement(Schema.services.insertSQL(columns: Schema.services.columnNames))
        func serviceKey(_ serviceID: String) throws -> Int {
            if let key = serviceKeys[serviceID] { return key }
            let key = keyBase + serviceKeys.count + 1
            try insertService.bind([.integer(Int64(key)), .integer(Int64(feedKey)), .text(serviceID)])
            try insertService.run()
            serviceKeys[serviceID] = key
            return key
        }
        var runningDays: [Int: Set<Int>] = [:]
        var calendarRows = 0
        if feed.contains("calendar.txt") {
            let insert = try database.makeStatement(Schema.calendar.insertSQL(columns: Schema.calendar.columnNames))
            let dayColumns = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
            try readFile("calendar.txt", requiring: ["service_id"] + dayColumns + ["start_date", "end_date"]) { fields, required in
                let serviceID = try fields.requiredText(required[0])
                if serviceKeys[serviceID] != nil {
                    report.skip("calendar.txt: duplicate service_id", example: "line \(fields.line): service_id '\(serviceID)'")
                    return
                }
                let key = try serviceKey(serviceID)
                var days: [Bool] = []
                for position in required[1...7] {
                    guard let flag = try fields.code(position, allowed: 0...1) else { throw fields.error(position, "is empty but required (0 or 1)") }
                    days.append(flag == 1)
                }
                let start = try fields.date(required[8])
                let end = try fields.date(required[9])
                guard start <= end else { throw fields.error(required[9], "\(end) is before start_date \(start)") }
                try insert.bind([.integer(Int64(key))] + days.map { .integer($0 ? 1 : 0) }
                                + [.integer(Int64(start.yyyymmdd)), .integer(Int64(end.yyyymmdd))])
                try insert.run()
                var running = Set<Int>()
                for dayNumber in start.dayNumber...end.dayNumber where days[ServiceDate(dayNumber: dayNumber).weekdayFromMonday] {
                    running.insert(dayNumber)
                }
                runningDays[key] = running
                calendarRows += 1
            }
            count("calendar", calendarRows)
        }
        var exceptionRows = 0
        if feed.contains("calendar_dates.txt") {
            let insert = try database.makeStatement(Schema.calendarDates.insertSQL(orIgnore: true))
            try readFile("calendar_dates.txt", requiring: ["service_id", "date", "exception_type"]) { fields, required in
                let serviceID = try fields.requiredText(required[0])
                let key = try serviceKey(serviceID)
                let date = try fields.date(required[1])
                guard let type = try fields.code(required[2], allowed: 1...2) else { throw fields.error(required[2], "is empty but required (1 or 2)") }
                try insert.bind([.integer(Int64(key)), .integer(Int64(date.yyyymmdd)), .integer(Int64(type))])
                try insert.run()
                guard database.changes == 1 else {
                    report.skip("calendar_dates.txt: duplicate (service_id, date)", example: "line \(fields.line): \(serviceID) \(date.yyyymmdd)")
                    return
                }
                if type == 1 {
                    runningDays[key, default: []].insert(date.dayNumber)
                } else {
                    runningDays[key]?.remove(date.dayNumber)
                }
                exceptionRows += 1
            }
            count("calendar_dates", exceptionRows)
        }
        guard calendarRows + exceptionRows > 0 else {
            throw FeedError(file: feed.contains("calendar.txt") ? "calendar.txt" : "calendar_dates.txt",
                            message: "has no rows: no trip would ever run")
        }
        let insertDay = try database.makeStatement(Schema.serviceDays(feedKey).insertSQL())
        var dayRows = 0
        var firstDay = Int.max, lastDay = Int.min
        for (service, days) in runningDays {
            for dayNumber in days {
                firstDay = min(firstDay, dayNumber)
                lastDay = max(lastDay, dayNumber)
                try insertDay.bind([.integer(Int64(ServiceDate(dayNumber: dayNumber).yyyymmdd)), .integer(Int64(service))])
                try insertDay.run()
                dayRows += 1
            }
        }
        if firstDay <= lastDay { serviceDates = ServiceDate(dayNumber: firstDay)...ServiceDate(dayNumber: lastDay) }
        count("services", serviceKeys.count)
        count("service_days", dayRows)
    }

    func loadTrips() throws {
        // The trips' last stop is filled in after their stop times (`writeTripEnds`).
        let tripEnds = [Schema.tripEnds.sequence.name, Schema.tripEnds.stop.name]
        let insertColumns = Schema.trips.columnNames.filter { !tripEnds.contains($0) }
        let insert = try BatchInsert(database, into: Schema.trips, columns: insertColumns, background: true)
        defer { insert.cancel() }
        // Each value's slot in the insert, found once by the column the model stores it in.
        let trips = TransitModel.entity("trips")
        let slot = { (column: String) -> Int in
            guard let slot = insertColumns.firstIndex(of: column) else { preconditionFailure("trips are inserted without \(column)") }
            return slot
        }
        let (keySlot, feedSlot, tripIDSlot, routeSlot, serviceSlot) = (slot(trips.keyColumn), slot(trips.keyColumn(of: "feed")),
                                                                       slot(trips.column(ofAttribute: "trip_id")), slot(trips.keyColumn(of: "route")),
                                                                       slot(trips.keyColumn(of: "service")))
        // The fields' places in the file, found by name in its header once.
        var places: (tripID: Int, routeID: Int, serviceID: Int, plain: [(field: Int, slot: Int)],
                     codes: [(field: Int?, slot: Int, allowed: ClosedRange<Int>)], unset: [Int])?
        var rows = 0
        var tripKeys = self.tripKeys
        var tripServices: [Int] = []
        var report = self.report
        try readFile("trips.txt", requiring: ["route_id", "service_id", "trip_id"]) { fields, _ in
            if places == nil {
                let plain = CopiedFields(entity: "trips", table: Schema.trips, header: fields.table, except: ["trip_id"])
                let copies = plain.copies.map { (field: $0.field, slot: slot($0.column)) }
                let codes = [("direction_id", 0...1), ("wheelchair_accessible", 0...2), ("bikes_allowed", 0...2)].map {
                    (field: fields.table.optional($0.0), slot: slot(trips.column(ofAttribute: $0.0)), allowed: $0.1)
                }
                // The columns no field of this file fills (an absent plain field) are set NULL in
                // every row: the insert's blocks are reused.
                let written = Set([keySlot, feedSlot, tripIDSlot, routeSlot, serviceSlot] + copies.map(\.slot) + codes.map(\.slot))
                places = (try fields.table.required("trip_id"), try fields.table.required("route_id"), try fields.table.required("service_id"),
                          copies, codes, insertColumns.indices.filter { !written.contains($0) })
            }
            guard let places else { return }
            let tripID = try fields.requiredText(places.tripID)
            if tripKeys[tripID] != nil {
                report.skip("trips.txt: duplicate trip_id", example: "line \(fields.line): trip_id '\(tripID)'")
                return
            }
            let routeID = try fields.requiredText(places.routeID)
            guard let route = routeKeys[routeID] else {
                report.skip("trips.txt: route_id not in routes.txt", example: "line \(fields.line): route_id '\(routeID)'")
                return
            }
            let serviceID = try fields.requiredText(places.serviceID)
            guard let service = serviceKeys[serviceID] else {
                report.skip("trips.txt: service_id not in calendar.txt or calendar_dates.txt",
                            example: "line \(fields.line): service_id '\(serviceID)'")
                return
            }
            rows += 1
            let key = keyBase + rows
            tripKeys[tripID] = key
            tripServices.append(service)
            insert.set(keySlot, integer: Int64(key))
            insert.set(feedSlot, integer: Int64(feedKey))
            fields.withBytes(places.tripID) { insert.set(tripIDSlot, utf8: $0) }
            insert.set(routeSlot, integer: Int64(route))
            insert.set(serviceSlot, integer: Int64(service))
            for (field, slot) in places.plain {
                try fields.validateText(field)
                fields.withBytes(field) { insert.set(slot, utf8: $0) }
            }
            for (field, slot, allowed) in places.codes {
                insert.set(slot, integer: try fields.code(field, allowed: allowed))
            }
            for slot in places.unset { insert.setNull(slot) }
            try insert.endRow()
        }
        try insert.finish()
        self.tripKeys = tripKeys
        self.tripServices = tripServices
        self.report = report
        guard rows > 0 else { throw FeedError(file: "trips.txt", message: "has no trips that could be loaded") }
        count("trips", rows)
    }

    func loadStopTimes() throws {
        var header: StopTimeFields?
        try readHeader("stop_times.txt") { header = try StopTimeFields(header: $0) }
        guard let layout = header else { return }
        let places = layout.places, slots = layout.slots, flexLocation = layout.flexLocation
        let (headsign, pickup, dropOff, timepoint, distance) = (layout.headsign, layout.pickup, layout.dropOff, layout.timepoint, layout.distance)
        let insert = try BatchInsert(database, into: Schema.stopTimes(feedKey), columns: layout.insertColumns, orIgnore: true, background: true)
        defer { insert.cancel() }
        var rows = 0
        // Hot-loop state lives in locals, written back at the end.
        var largestTime = self.largestTime
        var report = self.report
        let tripKeys = self.tripKeys
        let tripServices = self.tripServices
        let stopKeys = self.stopKeys
        var tripsWithMissingTimes = Set<Int>()
        // Each trip's largest stop_sequence and its stop, by trip key - keyBase - 1.
        var lastSequence = [Int](repeating: -1, count: tripKeys.count)
        var lastStop = [Int](repeating: 0, count: tripKeys.count)
        let firstTripKey = keyBase + 1
        // Rows come grouped by trip: the previous trip_id's bytes and key save a lookup per row,
        // and the run's sequences find duplicates with their line.
        var previousTripID: [UInt8] = []
        var previousTrip: Int?
        var runSequences: [Int] = []
        var flexRows = 0
        var stopHeadsigns = 0
        let plannerTrips = PlannerTripCollector(feedKey: feedKey, tripCount: tripKeys.count)
        try readFile("stop_times.txt", requiring: ["trip_id", "stop_sequence"]) { fields, required in
            let sameTrip = fields.withBytes(required[0]) { $0.elementsEqual(previousTripID) }
            if !sameTrip {
                let tripID = try fields.requiredText(required[0])
                previousTripID = Array(tripID.utf8)
                previousTrip = tripKeys[tripID]
                runSequences.removeAll(keepingCapacity: true)
            }
            guard let trip = previousTrip else {
                report.skip("stop_times.txt: trip_id not in trips.txt",
                            example: "line \(fields.line): trip_id '\(String(decoding: previousTripID, as: UTF8.self))'")
                return
            }
            let stop: Int? = fields.withBytes(places.stop) { bytes in
                bytes.isEmpty ? -1 : stopKeys[String(decoding: bytes, as: UTF8.self)]
            }
            guard let stop, stop >= 0 else {
                if stop == -1 {
                    if flexLocation.contains(where: { !fields.isEmpty($0) }) {
                        flexRows += 1
                        report.skip("stop_times.txt: GTFS-Flex rows (a location_id or location_group_id instead of a stop_id) are not supported yet",
                                    example: "line \(fields.line)")
                    } else {
                        report.skip("stop_times.txt: stop_id empty", example: "line \(fields.line)")
                    }
                } else {
                    let stopID = (try? fields.text(places.stop)) ?? nil
                    report.skip("stop_times.txt: stop_id not in stops.txt", example: "line \(fields.line): stop_id '\(stopID ?? "")'")
                }
                return
            }
            guard let sequence = try fields.int(required[1]) else { throw fields.error(required[1], "is empty but required") }
            guard sequence >= 0 else { throw fields.error(required[1], "\(sequence) is negative") }
            if let last = runSequences.last, sequence <= last, runSequences.contains(sequence) {
                report.skip("stop_times.txt: duplicate (trip_id, stop_sequence)",
                            example: "line \(fields.line): trip_id '\(String(decoding: previousTripID, as: UTF8.self))', stop_sequence \(sequence)")
                return
            }
            runSequences.append(sequence)
            let tripSlot = trip - firstTripKey
            if sequence > lastSequence[tripSlot] {
                lastSequence[tripSlot] = sequence
                lastStop[tripSlot] = stop
            }
            let arrivalTime = try fields.time(places.arrival)
            let departureTime = try fields.time(places.departure)
            let departure = departureTime ?? arrivalTime
            insert.set(slots.trip, integer: Int64(trip))
            insert.set(slots.sequence, integer: Int64(sequence))
            insert.set(slots.stop, integer: Int64(stop))
            insert.set(slots.arrival, integer: arrivalTime ?? departureTime)
            insert.set(slots.departure, integer: departure)
            insert.set(slots.service, integer: Int64(tripServices[tripSlot] - keyBase))
            if let departure {
                if departure > largestTime { largestTime = departure }
            } else {
                tripsWithMissingTimes.insert(trip)
            }
            if let headsign {
                try fields.validateText(headsign.field)
                fields.withBytes(headsign.field) { bytes in
                    if !bytes.isEmpty { stopHeadsigns += 1 }
                    insert.set(headsign.slot, utf8: bytes)
                }
            }
            let pickupType = try pickup.flatMap { try fields.code($0.field, allowed: 0...3) }
            let dropOffType = try dropOff.flatMap { try fields.code($0.field, allowed: 0...3) }
            if let pickup { insert.set(pickup.slot, integer: pickupType) }
            if let dropOff { insert.set(dropOff.slot, integer: dropOffType) }
            if let timepoint { insert.set(timepoint.slot, integer: try fields.code(timepoint.field, allowed: 0...1)) }
            if let distance { insert.set(distance.slot, real: try fields.double(distance.field)) }
            try insert.endRow()
            plannerTrips.add(trip: trip, sequence: sequence, stop: stop, arrival: arrivalTime ?? departureTime, departure: departure,
                             pickup: pickupType, dropOff: dropOffType)
            rows += 1
        }
        try insert.finish()
        plannerTrips.finish()
        self.plannerTrips = plannerTrips
        if insert.rowsIgnored > 0 {
            // Only rows of a trip split across the file get here: the run check above sees the rest.
            for _ in 0..<insert.rowsIgnored {
                report.skip("stop_times.txt: duplicate (trip_id, stop_sequence)",
                            example: "a trip whose rows are split across the file repeats a stop_sequence")
            }
            rows -= insert.rowsIgnored
        }
        self.largestTime = largestTime
        self.stopHeadsigns = stopHeadsigns
        self.report = report
        self.tripsWithMissingTimes = tripsWithMissingTimes
        self.tripEnds = (lastSequence, lastStop)
        guard rows > 0 else {
            let flex = flexRows == 0 ? "" : " (\(flexRows) GTFS-Flex row\(flexRows == 1 ? " is" : "s are") not supported yet)"
            throw FeedError(file: "stop_times.txt", message: "has no stop times that could be loaded" + flex)
        }
        count("stop_times", rows)
    }

    /// Writes each trip's last stop (largest `stop_sequence`, the stop there) into `trips`, from
    /// what `loadStopTimes` saw; a trip without stop times keeps NULL.
    func writeTripEnds() throws {
        let update = try database.makeStatement(UpdateDefinition(Schema.trips.name, set: [Schema.tripEnds.sequence.name, Schema.tripEnds.stop.name],
                                                                 where: [TransitModel.entity("trips").keyColumn]).sql)
        let firstTripKey = keyBase + 1
        for (slot, sequence) in tripEnds.sequences.enumerated() where sequence >= 0 {
            try update.bind([.integer(Int64(sequence)), .integer(Int64(tripEnds.stops[slot])), .integer(Int64(firstTripKey + slot))])
            try update.run()
        }
        tripEnds = ([], [])
    }

    /// Loads directions.txt (GTFS+): a name per route and `direction_id`. Rows naming an unknown
    /// route, a direction other than 0 or 1, or a pair given before are skipped and counted.
    func loadDirections() throws {
        let insert = try database.makeStatement(Schema.directions.insertSQL(columns: Schema.directions.columnNames, orIgnore: true))
        var rows = 0
        var seen = Set<[Int]>()
        try readFile("directions.txt", requiring: ["route_id", "direction_id", "direction"]) { fields, required in
            let routeID = try fields.requiredText(required[0])
            guard let route = routeKeys[routeID] else {
                report.skip("directions.txt: route_id not in routes.txt", example: "line \(fields.line): route_id '\(routeID)'")
                return
            }
            guard let direction = try? fields.int(required[1]), direction == 0 || direction == 1 else {
                report.skip("directions.txt: direction_id not 0 or 1", example: "line \(fields.line)")
                return
            }
            guard seen.insert([route, direction]).inserted else {
                report.skip("directions.txt: duplicate (route_id, direction_id)", example: "line \(fields.line): route_id '\(routeID)', direction_id \(direction)")
                return
            }
            guard let name = try fields.text(required[2]) else {
                report.skip("directions.txt: direction empty", example: "line \(fields.line)")
                return
            }
            try insert.bind([.integer(Int64(route)), .integer(Int64(direction)), .text(name)])
            try insert.run()
            rows += 1
        }
        count("directions", rows)
    }

    /// Gives untimed stop times the times interpolated between their timed neighbours on the same
    /// trip: for n untimed rows between times a and b, the k-th gets a + ⌊(b − a)·k / (n + 1)⌋.
    /// Rows without a timed neighbour on both sides keep no time.
    func interpolateMissingTimes() throws {
        guard !tripsWithMissingTimes.isEmpty else { return }
        progress?.step("interpolating missing times")
        // A trip's stop times in order, and the update of one's times, in the model's terms.
        var calls = TransitModel.fetch("stop_times", feedKey: feedKey)
        calls.filter(calls.key(of: "trip") == .variable("trip"))
        calls.sort(by: [calls.required("stop_sequence").ascending])
        let template = SQLGenerator.prepare(try calls.query(selecting: StopTimeTiming.selected).query)
        let stopTimes = calls.entity
        let update = try database.makeStatement(UpdateDefinition(stopTimes.table, set: ["arrival_time", "departure_time", "interpolated"].map(stopTimes.column(ofAttribute:)),
                                                                 where: [stopTimes.keyColumn(of: "trip"), stopTimes.column(ofAttribute: "stop_sequence")]).sql)
        var interpolated = 0
        for trip in tripsWithMissingTimes.sorted() {
            var timings: [StopTimeTiming] = []
            try database.forEachRow(try template.substituting(["trip": trip])) { timings.append(StopTimeTiming(row: $0)) }
            var previousTimed: Int?
            var index = 0
            while index < timings.count {
                if timings[index].departure != nil {
                    previousTimed = index
                    index += 1
                    continue
                }
                var next = index
                while next < timings.count, timings[next].departure == nil { next += 1 }
                if let before = previousTimed, next < timings.count {
                    let a = timings[before].departure!
                    let b = timings[next].arrival ?? timings[next].departure!
                    let n = next - index
                    for k in 1...n {
                        let time = a + (b - a) * k / (n + 1)
                        try update.bind([.integer(Int64(time)), .integer(Int64(time)), .integer(1),
                                         .integer(Int64(trip)), .integer(Int64(timings[index + k - 1].sequence))])
                        try update.run()
                        interpolated += 1
                    }
                }
                index = next
            }
        }
        report.interpolatedStopTimes = interpolated
    }

    /// Loads shapes.txt: points by (shape_id, shape_pt_sequence), `shape_dist_traveled` kept. A point
    /// that cannot be read (an empty or unparsable value, a coordinate out of range) or repeats a
    /// sequence is skipped and counted, like other bad rows: a shape is a drawing, not a timetable.
    func loadShapes() throws {
        let insert = try BatchInsert(database, into: Schema.shapes(feedKey), orIgnore: true, background: true)
        defer { insert.cancel() }
        var rows = 0
        var distanceColumn: Int??
        var report = self.report
        try readFile("shapes.txt", requiring: ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence"]) { fields, required in
            if distanceColumn == nil { distanceColumn = .some(fields.table.optional("shape_dist_traveled")) }
            do {
                let shapeID = try fields.requiredText(required[0])
                guard let latitude = try fields.double(required[1]) else { throw fields.error(required[1], "is empty but required") }
                guard let longitude = try fields.double(required[2]) else { throw fields.error(required[2], "is empty but required") }
                guard (-90.0...90.0).contains(latitude) else { throw fields.error(required[1], "\(latitude) is outside [-90, 90]") }
                guard (-180.0...180.0).contains(longitude) else { throw fields.error(required[2], "\(longitude) is outside [-180, 180]") }
                guard let sequence = try fields.int(required[3]), sequence >= 0 else { throw fields.error(required[3], "is empty or negative") }
                let distance = try fields.double(distanceColumn!)
                insert.set(0, text: shapeID)
                insert.set(1, integer: Int64(sequence))
                insert.set(2, real: latitude)
                insert.set(3, real: longitude)
                insert.set(4, real: distance)
            } catch let error as FeedError {
                report.skip("shapes.txt: points that cannot be read", example: "line \(fields.line): \(error.field ?? "") \(error.message)")
                return
            }
            try insert.endRow()
            rows += 1
        }
        try insert.finish()
        for _ in 0..<insert.rowsIgnored {
            report.skip("shapes.txt: duplicate (shape_id, shape_pt_sequence)", example: "a shape repeats a shape_pt_sequence")
        }
        self.report = report
        count("shapes", rows - insert.rowsIgnored)
    }

    func loadFrequencies() throws {
        let insert = try database.makeStatement(Schema.frequencies.insertSQL())
        var rows = 0
        var exactColumn: Int??
        var latestFrequencyEnd = 0
        try readFile("frequencies.txt", requiring: ["trip_id", "start_time", "end_time", "headway_secs"]) { fields, required in
            if exactColumn == nil { exactColumn = .some(fields.table.optional("exact_times")) }
            let tripID = try fields.requiredText(required[0])
            guard let trip = tripKeys[tripID] else {
                report.skip("frequencies.txt: trip_id not in trips.txt", example: "line \(fields.line): trip_id '\(tripID)'")
                return
            }
            guard let start = try fields.time(required[1]) else { throw fields.error(required[1], "is empty but required") }
            guard let end = try fields.time(required[2]) else { throw fields.error(required[2], "is empty but required") }
            guard let headway = try fields.int(required[3]), headway > 0 else { throw fields.error(required[3], "must be a positive number of seconds") }
            // A run may start as late as end_time: the look-back for departures must reach it.
            latestFrequencyEnd = max(latestFrequencyEnd, end)
            try insert.bind([.integer(Int64(trip)), .integer(Int64(start)), .integer(Int64(end)), .integer(Int64(headway)),
                             (try fields.code(exactColumn!, allowed: 0...1)).sqlValue])
            try insert.run()
            rows += 1
        }
        if latestFrequencyEnd > 0 { largestTime = max(largestTime, latestFrequencyEnd + largestTime) }
        hasFrequencies = rows > 0
        count("frequencies", rows)
    }

    func loadFeedInfo() throws {
        let insert = try database.makeStatement(Schema.feedInfo.insertSQL())
        var rows = 0
        _ = try readFile("feed_info.txt") { fields in
            let table = fields.table
            try insert.bind([
                .integer(Int64(feedKey)),
                (try fields.text(table.optional("feed_publisher_name"))).sqlValue,
                (try fields.text(table.optional("feed_publisher_url"))).sqlValue,
                (try fields.text(table.optional("feed_lang"))).sqlValue,
                (try fields.optionalDate(table.optional("feed_start_date"))?.yyyymmdd).sqlValue,
                (try fields.optionalDate(table.optional("feed_end_date"))?.yyyymmdd).sqlValue,
                (try fields.text(table.optional("feed_version"))).sqlValue,
                (try fields.text(table.optional("feed_contact_email"))).sqlValue,
                (try fields.text(table.optional("feed_contact_url"))).sqlValue,
            ])
            try insert.run()
            rows += 1
        }
        count("feed_info", rows)
    }

    /// Records the feed in `feeds` (and the schema version, for a new database).
    func writeFeedRecord() throws {
        let now = Int(time(nil))
        let utc = AgencyTimeZone(identifier: "UTC")!.localTime(of: now)
        let importedAt = utc.date.description + "T" + GTFSTime.format(utc.hour * 3600 + utc.minute * 60 + utc.second) + "Z"
        try MetadataEntry.set(String(Schema.version), for: .schemaVersion, in: database)
        let c = Feed.columns
        try database.run(SQLGenerator.prepareInsert(into: Feed.tableName, values: [
            (c.key.name, .integer(Int64(feedKey))), (c.name.name, .text(feedName)), (c.source.name, .text(recordedSource ?? feedPath)),
            (c.importedAt.name, .text(importedAt)), (c.timeZone.name, .text(timeZone?.identifier ?? "UTC")),
            (c.agencies.name, .text(agencyNames.joined(separator: "\n"))), (c.largestTime.name, .integer(Int64(largestTime))),
            (c.hasFrequencies.name, .integer(hasFrequencies ? 1 : 0)), (c.stops.name, .integer(Int64(report.rows(in: "stops")))),
            (c.stopTimes.name, .integer(Int64(report.rows(in: "stop_times")))), (c.trips.name, .integer(Int64(report.rows(in: "trips")))),
            (c.routes.name, .integer(Int64(report.rows(in: "routes")))),
            (c.firstDate.name, (serviceDates?.lowerBound.yyyymmdd).sqlValue), (c.lastDate.name, (serviceDates?.upperBound.yyyymmdd).sqlValue),
        ]))
        try FeedCatalog.recordKeyGiven(feedKey, in: database)
        try FeedFacts.recordStopHeadsigns(stopHeadsigns, ofFeed: feedKey, in: database)
        if let recordedSource, let validators = downloadValidators {
            try FeedDownload.record(feed: feedKey, url: recordedSource, etag: validators.etag, lastModified: validators.lastModified, in: database)
        }
    }
}

/// The times of a stop time, as the interpolation pass reads them: the model's key paths, which
/// its request selects and its rows are read by.
struct StopTimeTiming {
    /// The key paths read: `stop_sequence`, `arrival_time`, `departure_time`.
    static let keyPaths = (sequence: "stop_sequence", arrival: "arrival_time", departure: "departure_time")
    /// What the request selects.
    static var selected: [String] { [keyPaths.sequence, keyPaths.arrival, keyPaths.departure] }

    let sequence: Int
    let arrival: Int?
    let departure: Int?

    /// The timing in `row`, which selects `selected`.
    init(row: Row) {
        sequence = row.int(Self.keyPaths.sequence)
        arrival = row.optionalInt(Self.keyPaths.arrival)
        departure = row.optionalInt(Self.keyPaths.departure)
    }
}
