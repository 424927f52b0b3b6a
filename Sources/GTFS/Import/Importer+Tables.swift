import FetchRequest
#if canImport(Glibc)
import Glibc
#endif

/// One loader per GTFS file, in the order references need: agencies, stops, routes, calendars,
/// trips, stop times, then the optional files.
extension Importer {
    func loadAgencies() throws {
        typealias C = Agency.Columns
        let insert = try RowWriter(database, insertingEveryColumnOf: Schema.agency)
        var rows = 0
        var copied: CopiedFields?
        try readFile("agency.txt", requiring: [C.name, C.timeZone, C.url].names()) { fields, _ in
            let plain = copied ?? CopiedFields(entity: Agency.entityName, table: Schema.agency, header: fields.table,
                                               except: Set([C.agencyID, C.name, C.timeZone].names()))
            copied = plain
            let agencyID = try fields.text(C.agencyID) ?? ""
            let zoneName = try fields.requiredText(C.timeZone)
            guard let zone = AgencyTimeZone(identifier: zoneName) else {
                throw fields.error(C.timeZone.name, "'\(zoneName)' is not a time zone of the tz database (like Europe/Vilnius); is tzdata installed?")
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
            let name = try fields.requiredText(C.name)
            let key = keyBase + rows + 1
            try insert.write { row in
                row[C.key] = .integer(Int64(key))
                row[C.feed] = .integer(Int64(feedKey))
                row[C.agencyID] = .text(agencyID)
                row[C.name] = .text(name)
                row[C.timeZone] = .text(zoneName)
                try plain.copy(from: fields, into: &row)
            }
            agencyKeys[agencyID] = key
            agencyNames.append(name)
            rows += 1
        }
        guard rows > 0 else { throw FeedError(file: "agency.txt", message: "has a header but no agency; the feed needs one to know its time zone") }
        count("agency", rows)
    }

    /// A stop of stops.txt, as `loadStops` keeps it to link parents and index names.
    struct LoadedStop {
        let key: Int
        let stopID: String
        let normalizedName: String
        let locationType: Int
    }

    func loadStops() throws {
        typealias C = Stop.Columns
        let insert = try RowWriter(database, insertingEveryColumnOf: Schema.stops)
        var namedStops: [LoadedStop] = []
        var pendingParents: [(key: Int, parent: String, line: Int)] = []
        var copied: CopiedFields?
        try readFile("stops.txt", requiring: [C.stopID, C.name, C.latitude, C.longitude].names()) { fields, _ in
            let plain = copied ?? CopiedFields(entity: Stop.entityName, table: Schema.stops, header: fields.table,
                                               except: [C.stopID.name, C.name.name, "parent_station"])
            copied = plain
            let stopID = try fields.requiredText(C.stopID)
            if stopKeys[stopID] != nil {
                report.skip("stops.txt: duplicate stop_id", example: "line \(fields.line): stop_id '\(stopID)'")
                return
            }
            let locationType = try fields.code(C.locationType, allowed: 0...4) ?? 0
            let (latitude, longitude) = try stopPosition(fields, locationType: locationType)
            let name = try fields.text(C.name)
            let stop = LoadedStop(key: keyBase + namedStops.count + 1, stopID: stopID, normalizedName: NameNormalizer.normalize(name ?? ""),
                                  locationType: locationType)
            try insert.write { row in
                row[C.key] = .integer(Int64(stop.key))
                row[C.feed] = .integer(Int64(feedKey))
                row[C.stopID] = .text(stopID)
                row[C.name] = name.sqlValue
                row[C.normalizedName] = .text(stop.normalizedName)
                row[C.latitude] = latitude.sqlValue
                row[C.longitude] = longitude.sqlValue
                row[C.locationType] = .integer(Int64(locationType))
                row[C.wheelchairBoarding] = try fields.code(C.wheelchairBoarding, allowed: 0...2).sqlValue
                try plain.copy(from: fields, into: &row)
            }
            stopKeys[stopID] = stop.key
            if let parent = try fields.text("parent_station") { pendingParents.append((stop.key, parent, fields.line)) }
            namedStops.append(stop)
        }
        guard !namedStops.isEmpty else { throw FeedError(file: "stops.txt", message: "has a header but no stops") }
        let parents = try linkParents(pendingParents)
        let prefixes = try StopNamePrefixes.write(namedStops.map {
            StopNamePrefixes.NamedStop(key: $0.key, stopID: $0.stopID, normalizedName: $0.normalizedName,
                                       locationType: $0.locationType, parent: parents[$0.key])
        }, into: database)
        count("stops", namedStops.count)
        count("stop_name_prefixes", prefixes)
    }

    /// A stop's `stop_lat` and `stop_lon`: required for stops, stations and entrances (which must
    /// be on the map), and on the globe when given.
    private func stopPosition(_ fields: FieldReader, locationType: Int) throws -> (latitude: Double?, longitude: Double?) {
        typealias C = Stop.Columns
        let latitude = try fields.double(C.latitude)
        let longitude = try fields.double(C.longitude)
        for (column, value) in [(C.latitude, latitude), (C.longitude, longitude)] where locationType <= 2 && value == nil {
            throw FeedError(file: "stops.txt", line: fields.line, field: column.name,
                            message: "is empty but required for location_type \(locationType)")
        }
        if let latitude, !(-90.0...90.0).contains(latitude) {
            throw FeedError(file: "stops.txt", line: fields.line, field: C.latitude.name, message: "\(latitude) is outside [-90, 90]")
        }
        if let longitude, !(-180.0...180.0).contains(longitude) {
            throw FeedError(file: "stops.txt", line: fields.line, field: C.longitude.name, message: "\(longitude) is outside [-180, 180]")
        }
        return (latitude, longitude)
    }

    /// Sets each stop's parent station, named by `parent_station` once every stop is loaded; a
    /// parent missing from the file, or the stop itself, is skipped and reported. Returns the
    /// parents by stop key.
    private func linkParents(_ pending: [(key: Int, parent: String, line: Int)]) throws -> [Int: Int] {
        let keys = Stop.Columns.key.name, parent = Stop.Columns.parent.name
        let setParent = try RowWriter(database, updating: UpdateDefinition(Schema.stops.name, set: [parent], where: keys))
        var parents: [Int: Int] = [:]
        for pending in pending {
            guard let parentKey = stopKeys[pending.parent], parentKey != pending.key else {
                let what = stopKeys[pending.parent] == nil ? "not in stops.txt" : "the stop itself"
                report.skip("stops.txt: parent_station \(what) (stop kept without a parent)",
                            example: "line \(pending.line): parent_station '\(pending.parent)'")
                continue
            }
            try setParent.write { row in
                row[parent] = .integer(Int64(parentKey))
                row[keys] = .integer(Int64(pending.key))
            }
            parents[pending.key] = parentKey
        }
        return parents
    }

    func loadRoutes() throws {
        typealias C = Route.Columns
        let insert = try RowWriter(database, insertingEveryColumnOf: Schema.routes)
        var rows = 0
        var copied: CopiedFields?
        let onlyAgency = agencyKeys.count == 1 ? agencyKeys.values.first : nil
        try readFile("routes.txt", requiring: [C.routeID, C.type].names()) { fields, _ in
            if copied == nil {
                if fields.table.optional(C.shortName.name) == nil && fields.table.optional(C.longName.name) == nil {
                    throw FeedError(file: "routes.txt", message: "missing required column route_short_name or route_long_name (GTFS needs one of them)")
                }
                copied = CopiedFields(entity: Route.entityName, table: Schema.routes, header: fields.table, except: [C.routeID.name])
            }
            let routeID = try fields.requiredText(C.routeID)
            if routeKeys[routeID] != nil {
                report.skip("routes.txt: duplicate route_id", example: "line \(fields.line): route_id '\(routeID)'")
                return
            }
            var agency = onlyAgency
            if let agencyID = try fields.text(Agency.Columns.agencyID) {
                guard let key = agencyKeys[agencyID] else {
                    report.skip("routes.txt: agency_id not in agency.txt", example: "line \(fields.line): agency_id '\(agencyID)'")
                    return
                }
                agency = key
            }
            guard let routeType = try fields.int(C.type) else { throw fields.error(C.type.name, "is empty but required") }
            let key = keyBase + rows + 1
            try insert.write { row in
                row[C.key] = .integer(Int64(key))
                row[C.feed] = .integer(Int64(feedKey))
                row[C.routeID] = .text(routeID)
                row[C.agency] = agency.sqlValue
                row[C.type] = .integer(Int64(routeType))
                row[C.sortOrder] = try fields.int(C.sortOrder).sqlValue
                try copied?.copy(from: fields, into: &row)
            }
            routeKeys[routeID] = key
            rows += 1
        }
        guard rows > 0 else { throw FeedError(file: "routes.txt", message: "has a header but no routes") }
        count("routes", rows)
    }

    /// Loads calendar.txt and calendar_dates.txt, then expands them into `service_days`: one row
    /// per date a service runs.
    func loadCalendars() throws {
        let services = try RowWriter(database, insertingEveryColumnOf: Schema.services)
        var runningDays: [Int: Set<Int>] = [:]
        let calendarRows = feed.contains("calendar.txt") ? try loadCalendar(runningDays: &runningDays, services: services) : 0
        let exceptionRows = feed.contains("calendar_dates.txt") ? try loadCalendarDates(runningDays: &runningDays, services: services) : 0
        guard calendarRows + exceptionRows > 0 else {
            throw FeedError(file: feed.contains("calendar.txt") ? "calendar.txt" : "calendar_dates.txt",
                            message: "has no rows: no trip would ever run")
        }
        try writeServiceDays(runningDays)
    }

    /// The key of the service `serviceID`, written into `services` the first time a file names it.
    private func serviceKey(_ serviceID: String, services: RowWriter) throws -> Int {
        if let key = serviceKeys[serviceID] { return key }
        let key = keyBase + serviceKeys.count + 1
        try services.write { row in
            row["id"] = .integer(Int64(key))
            row["feed"] = .integer(Int64(feedKey))
            row["service_id"] = .text(serviceID)
        }
        serviceKeys[serviceID] = key
        return key
    }

    /// Loads calendar.txt, adding each service's days (by day number) to `runningDays`; returns its rows.
    private func loadCalendar(runningDays: inout [Int: Set<Int>], services: RowWriter) throws -> Int {
        let insert = try RowWriter(database, insertingEveryColumnOf: Schema.calendar)
        let dayColumns = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        var rows = 0
        try readFile("calendar.txt", requiring: ["service_id"] + dayColumns + ["start_date", "end_date"]) { fields, required in
            let serviceID = try fields.requiredText(required[0])
            if serviceKeys[serviceID] != nil {
                report.skip("calendar.txt: duplicate service_id", example: "line \(fields.line): service_id '\(serviceID)'")
                return
            }
            let key = try serviceKey(serviceID, services: services)
            var days: [Bool] = []
            for position in required[1...7] {
                guard let flag = try fields.code(position, allowed: 0...1) else { throw fields.error(position, "is empty but required (0 or 1)") }
                days.append(flag == 1)
            }
            let start = try fields.date(required[8])
            let end = try fields.date(required[9])
            guard start <= end else { throw fields.error(required[9], "\(end) is before start_date \(start)") }
            try insert.write { row in
                row["service"] = .integer(Int64(key))
                for (day, runs) in zip(dayColumns, days) { row[day] = .integer(runs ? 1 : 0) }
                row["start_date"] = .integer(Int64(start.yyyymmdd))
                row["end_date"] = .integer(Int64(end.yyyymmdd))
            }
            runningDays[key] = Set((start.dayNumber...end.dayNumber).filter { days[ServiceDate(dayNumber: $0).weekdayFromMonday] })
            rows += 1
        }
        count("calendar", rows)
        return rows
    }

    /// Loads calendar_dates.txt, adding and removing days of `runningDays`; returns its rows.
    private func loadCalendarDates(runningDays: inout [Int: Set<Int>], services: RowWriter) throws -> Int {
        let insert = try RowWriter(database, inserting: Schema.calendarDates, orIgnore: true)
        var rows = 0
        try readFile("calendar_dates.txt", requiring: ["service_id", "date", "exception_type"]) { fields, required in
            let serviceID = try fields.requiredText(required[0])
            let key = try serviceKey(serviceID, services: services)
            let date = try fields.date(required[1])
            guard let type = try fields.code(required[2], allowed: 1...2) else { throw fields.error(required[2], "is empty but required (1 or 2)") }
            try insert.write { row in
                row["service"] = .integer(Int64(key))
                row["date"] = .integer(Int64(date.yyyymmdd))
                row["exception_type"] = .integer(Int64(type))
            }
            guard database.changes == 1 else {
                report.skip("calendar_dates.txt: duplicate (service_id, date)", example: "line \(fields.line): \(serviceID) \(date.yyyymmdd)")
                return
            }
            if type == 1 {
                runningDays[key, default: []].insert(date.dayNumber)
            } else {
                runningDays[key]?.remove(date.dayNumber)
            }
            rows += 1
        }
        count("calendar_dates", rows)
        return rows
    }

    /// Writes `service_days`: one row per (date, service) that runs; sets the feed's service dates.
    private func writeServiceDays(_ runningDays: [Int: Set<Int>]) throws {
        let insert = try RowWriter(database, inserting: Schema.serviceDays(feedKey))
        var dayRows = 0
        var firstDay = Int.max, lastDay = Int.min
        for (service, days) in runningDays {
            for dayNumber in days {
                firstDay = min(firstDay, dayNumber)
                lastDay = max(lastDay, dayNumber)
                try insert.write { row in
                    row["date"] = .integer(Int64(ServiceDate(dayNumber: dayNumber).yyyymmdd))
                    row["service"] = .integer(Int64(service))
                }
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
        var places: TripFields?
        var rows = 0
        var tripKeys = IdentifierKeys(firstKey: keyBase + 1)
        var tripServices: [UInt32] = []
        var report = self.report
        try readFile("trips.txt", requiring: ["route_id", "service_id", "trip_id"]) { fields, _ in
            if places == nil { places = try TripFields(header: fields.table, insertColumns: insertColumns) }
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
            let key = tripKeys.add(tripID)!
            tripServices.append(UInt32(service - keyBase))
            insert.set(places.keySlot, integer: Int64(key))
            insert.set(places.feedSlot, integer: Int64(feedKey))
            fields.withBytes(places.tripID) { insert.set(places.tripIDSlot, utf8: $0) }
            insert.set(places.routeSlot, integer: Int64(route))
            insert.set(places.serviceSlot, integer: Int64(service))
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

    /// Writes each trip's last stop (largest `stop_sequence`, the stop there) into `trips`, from
    /// what `loadStopTimes` saw; a trip without stop times keeps NULL.
    func writeTripEnds() throws {
        let (sequenceColumn, stopColumn, keyColumn) = (Schema.tripEnds.sequence.name, Schema.tripEnds.stop.name, TransitModel.entity("trips").keyColumn)
        let update = try RowWriter(database, updating: UpdateDefinition(Schema.trips.name, set: [sequenceColumn, stopColumn], where: [keyColumn]))
        let firstTripKey = keyBase + 1
        for (slot, sequence) in tripEnds.sequences.enumerated() where sequence >= 0 {
            try update.write { row in
                row[sequenceColumn] = .integer(Int64(sequence))
                row[stopColumn] = .integer(Int64(keyBase + Int(tripEnds.stops[slot])))
                row[keyColumn] = .integer(Int64(firstTripKey + slot))
            }
        }
        tripEnds = ([], [])
    }

    /// Loads directions.txt (GTFS+): a name per route and `direction_id`. Rows naming an unknown
    /// route, a direction other than 0 or 1, or a pair given before are skipped and counted.
    func loadDirections() throws {
        let insert = try RowWriter(database, inserting: Schema.directions, orIgnore: true)
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
            try insert.write { row in
                row["route"] = .integer(Int64(route))
                row["direction_id"] = .integer(Int64(direction))
                row["direction"] = .text(name)
            }
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
        let (arrival, departure, interpolatedColumn) = (stopTimes.column(ofAttribute: "arrival_time"), stopTimes.column(ofAttribute: "departure_time"),
                                                        stopTimes.column(ofAttribute: "interpolated"))
        let (tripColumn, sequenceColumn) = (stopTimes.keyColumn(of: "trip"), stopTimes.column(ofAttribute: "stop_sequence"))
        let update = try RowWriter(database, updating: UpdateDefinition(stopTimes.table, set: [arrival, departure, interpolatedColumn],
                                                                        where: [tripColumn, sequenceColumn]))
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
                        try update.write { row in
                            row[arrival] = .integer(Int64(time))
                            row[departure] = .integer(Int64(time))
                            row[interpolatedColumn] = .integer(1)
                            row[tripColumn] = .integer(Int64(trip))
                            row[sequenceColumn] = .integer(Int64(timings[index + k - 1].sequence))
                        }
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
        let insert = try RowWriter(database, inserting: Schema.frequencies)
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
            let exact = try fields.code(exactColumn!, allowed: 0...1)
            try insert.write { row in
                row["trip"] = .integer(Int64(trip))
                row["start_time"] = .integer(Int64(start))
                row["end_time"] = .integer(Int64(end))
                row["headway_secs"] = .integer(Int64(headway))
                row["exact_times"] = exact.sqlValue
            }
            rows += 1
        }
        if latestFrequencyEnd > 0 { largestTime = max(largestTime, latestFrequencyEnd + largestTime) }
        hasFrequencies = rows > 0
        count("frequencies", rows)
    }

    func loadFeedInfo() throws {
        let insert = try RowWriter(database, inserting: Schema.feedInfo)
        var rows = 0
        _ = try readFile("feed_info.txt") { fields in
            let table = fields.table
            try insert.write { row in
                row["feed"] = .integer(Int64(feedKey))
                // In the file's order of fields, so the first bad one is the one reported.
                for column in Schema.feedInfo.columnNames.dropFirst() {
                    let isDate = column.hasSuffix("_date")
                    row[column] = isDate ? try fields.optionalDate(table.optional(column))?.yyyymmdd.sqlValue ?? .null
                                         : try fields.text(table.optional(column)).sqlValue
                }
            }
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
            try DownloadRecord.record(feed: feedKey, url: recordedSource, etag: validators.etag, lastModified: validators.lastModified, in: database)
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
