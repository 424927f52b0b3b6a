import FetchRequest

extension Importer {
    /// Loads stop_times.txt, the biggest file, through a `BatchInsert` filled on one thread and
    /// written on another, and gathers the journey planner's trips on the way.
    ///
    /// Long because it is the import's hot loop: its state lives in locals the closure captures,
    /// written back once at the end (a step per function would pass that state per row).
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
        var lastStop = [UInt32](repeating: 0, count: tripKeys.count)
        let firstTripKey = keyBase + 1
        // Rows come grouped by trip: the previous trip_id's bytes and key save a lookup per row,
        // and the run's sequences find duplicates with their line.
        var previousTripID: [UInt8] = []
        var previousTrip: Int?
        var runSequences: [Int] = []
        var flexRows = 0
        var stopHeadsigns = 0
        let plannerTrips = try PlannerTripCollector(feedKey: feedKey, tripCount: tripKeys.count,
                                                    scratchDirectory: FileSystem.directory(of: database.path))
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
                if Importer.skipStopTime(fields, emptyStop: stop == -1, stopField: places.stop, flexLocation: flexLocation, into: &report) { flexRows += 1 }
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
                lastStop[tripSlot] = UInt32(stop - keyBase)
            }
            let arrivalTime = try fields.time(places.arrival)
            let departureTime = try fields.time(places.departure)
            let departure = departureTime ?? arrivalTime
            insert.set(slots.trip, integer: Int64(trip))
            insert.set(slots.sequence, integer: Int64(sequence))
            insert.set(slots.stop, integer: Int64(stop))
            insert.set(slots.arrival, integer: arrivalTime ?? departureTime)
            insert.set(slots.departure, integer: departure)
            insert.set(slots.service, integer: Int64(tripServices[tripSlot]))
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
        // Only rows of a trip split across the file get here: the run check above sees the rest.
        for _ in 0..<insert.rowsIgnored {
            report.skip("stop_times.txt: duplicate (trip_id, stop_sequence)",
                        example: "a trip whose rows are split across the file repeats a stop_sequence")
        }
        rows -= insert.rowsIgnored
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

    /// Reports a stop time skipped for its stop: an empty stop_id (GTFS-Flex when it names a
    /// location instead: returns true) or one not in stops.txt.
    static func skipStopTime(_ fields: FieldReader, emptyStop: Bool, stopField: Int?, flexLocation: [Int?], into report: inout ImportReport) -> Bool {
        guard emptyStop else {
            let stopID = (try? fields.text(stopField)) ?? nil
            report.skip("stop_times.txt: stop_id not in stops.txt", example: "line \(fields.line): stop_id '\(stopID ?? "")'")
            return false
        }
        if flexLocation.contains(where: { !fields.isEmpty($0) }) {
            report.skip("stop_times.txt: GTFS-Flex rows (a location_id or location_group_id instead of a stop_id) are not supported yet",
                        example: "line \(fields.line)")
            return true
        }
        report.skip("stop_times.txt: stop_id empty", example: "line \(fields.line)")
        return false
    }
}
