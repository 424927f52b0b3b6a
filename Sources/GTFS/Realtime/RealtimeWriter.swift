import FetchRequest

extension RealtimeStore {
    /// Writes one read's realtime data of a feed: one function per kind of message (trip updates,
    /// vehicles, alerts) and the read's own rows (the feed's realtime record, the sources).
    struct Writer {
        let database: Database
        let feed: Feed
        let now: Int
        /// The message timestamp rule 1 measures from.
        let timestamp: Int
        var nextKey: Int

        init(database: Database, feed: Feed, now: Int, timestamp: Int) {
            self.database = database
            self.feed = feed
            self.now = now
            self.timestamp = timestamp
            nextKey = FeedKeys.base(of: feed.key) + 1
        }

        mutating func key() -> Int {
            defer { nextKey += 1 }
            return nextKey
        }

        mutating func write(_ dataset: RealtimeDataset, into summary: inout RealtimeSummary) throws {
            let lookups = try RealtimeLookups(feed: feed)
            var applier = try RealtimeApplier(database: database, feed: feed, lookups: lookups)
            var unmatched: [String] = []
            try writeTripUpdates(dataset.tripUpdates, lookups: lookups, applier: &applier, into: &summary, unmatched: &unmatched)
            try applier.flush()
            summary.unmatchedExamples = unmatched
            try writeFeedRow(dataset, applier: applier)
            try writeVehicles(dataset.vehicles, lookups: lookups, into: &summary)
            try writeAlerts(dataset.alerts, into: &summary)
            try writeSources(dataset.sources)
        }

        /// The key and service of the feed's trip `tripID`, if it has one.
        func trip(_ tripID: String, lookups: RealtimeLookups) throws -> (key: Int, service: Int)? {
            var found: (Int, Int)?
            let position = lookups.trip.position
            try database.forEachRow(try lookups.trip.request.substituting(["trip_id": tripID])) { found = ($0.int(position.key), $0.int(position.service)) }
            return found
        }

        /// The trip run a trip update is about (rule 1): the trip, its service date and, for a
        /// trip run by frequencies, the run's start.
        struct Match {
            var tripKey: Int?
            var serviceDate: ServiceDate?
            var runStart: Int?
        }

        /// Stores the trip updates and their stop time updates, and applies those that match a
        /// trip run to the departures (`RealtimeApplier`).
        mutating func writeTripUpdates(_ updates: [RealtimeDataset.TripUpdate], lookups: RealtimeLookups, applier: inout RealtimeApplier,
                                       into summary: inout RealtimeSummary, unmatched: inout [String]) throws {
            let tripInsert = try RowWriter(database, insertingEveryColumnOf: RealtimeSchema.tripUpdates)
            let stopTimeInsert = try RowWriter(database, insertingEveryColumnOf: RealtimeSchema.stopTimeUpdates)
            for update in updates {
                summary.tripUpdates += 1
                let descriptor = update.trip
                var match = try self.match(descriptor, lookups: lookups, into: &summary, unmatched: &unmatched)
                let id = key()
                if descriptor.isAdded {
                    var keys = nextKey
                    match.serviceDate = try applier.add(update, tripUpdate: id, startDate: descriptor.startDate) {
                        defer { keys += 1 }
                        return keys
                    }
                    nextKey = keys
                }
                try tripInsert.write { row in tripUpdateRow(update, id: id, match: match, into: &row) }
                if let tripKey = match.tripKey, let serviceDate = match.serviceDate {
                    try applier.apply(update, trip: tripKey, on: serviceDate, runStart: match.runStart, into: &summary)
                }
                for (position, stopTime) in update.stopTimeUpdates.enumerated() {
                    let stop = try applier.stop(stopTime.stopID)
                    try stopTimeInsert.write { row in
                        row["trip_update"] = .integer(Int64(id))
                        row["position"] = .integer(Int64(position))
                        row["stop_sequence"] = stopTime.stopSequence.sqlValue
                        row["stop_id"] = stopTime.stopID.sqlValue
                        row["stop"] = stop.sqlValue
                        row["arrival_time"] = stopTime.arrival?.time.sqlValue ?? .null
                        row["arrival_delay"] = stopTime.arrival?.delay.sqlValue ?? .null
                        row["departure_time"] = stopTime.departure?.time.sqlValue ?? .null
                        row["departure_delay"] = stopTime.departure?.delay.sqlValue ?? .null
                        row["relationship"] = .integer(Int64(stopTime.relationship))
                    }
                }
            }
        }

        /// A `realtime_trip_updates` row: the update as given and the trip run it matched.
        private func tripUpdateRow(_ update: RealtimeDataset.TripUpdate, id: Int, match: Match, into row: inout RowWriter.Values) {
            let descriptor = update.trip
            row["id"] = .integer(Int64(id))
            row["feed"] = .integer(Int64(feed.key))
            row["entity_id"] = .text(update.entityID)
            row["trip"] = match.tripKey.sqlValue
            row["service_date"] = match.serviceDate.map { SQLValue.integer(Int64($0.yyyymmdd)) } ?? .null
            row["trip_id"] = descriptor.tripID.sqlValue
            row["route_id"] = descriptor.routeID.sqlValue
            row["direction_id"] = descriptor.directionID.sqlValue
            row["start_date"] = descriptor.startDate.map { SQLValue.integer(Int64($0.yyyymmdd)) } ?? .null
            row["start_time"] = descriptor.startTime.sqlValue
            row["relationship"] = .integer(Int64(descriptor.relationship))
            row["delay"] = update.delay.sqlValue
            row["timestamp"] = update.timestamp.sqlValue
            row["vehicle_id"] = update.vehicleID.sqlValue
            row["vehicle_label"] = update.vehicleLabel.sqlValue
        }

        /// Rule 1: the trip run a trip update's descriptor names, counted as matched, added or
        /// unmatched (with up to five examples of why).
        private func match(_ descriptor: RealtimeDataset.TripDescriptor, lookups: RealtimeLookups,
                           into summary: inout RealtimeSummary, unmatched: inout [String]) throws -> Match {
            func note(_ example: String) {
                summary.unmatched += 1
                if unmatched.count < 5 { unmatched.append(example) }
            }
            if descriptor.isAdded {
                summary.added += 1
                return Match(serviceDate: descriptor.startDate)
            }
            guard let tripID = descriptor.tripID, !tripID.isEmpty else {
                note("(no trip_id\(descriptor.routeID.map { ", route_id \($0)" } ?? ""))")
                return Match()
            }
            guard let found = try trip(tripID, lookups: lookups) else {
                note(tripID)
                return Match()
            }
            let day = feed.timeZone.localTime(of: timestamp).date
            let serviceDate = try descriptor.startDate ?? nearestServiceDate(of: found, startTime: descriptor.startTime, day: day, lookups: lookups)
            // A trip run by frequencies.txt has one run per start_time: without one no run can be
            // told from the others.
            var runsByFrequency = false
            if feed.hasFrequencies {
                try database.forEachRow(try lookups.frequencyCount.substituting(["trip": found.key])) { runsByFrequency = $0.int(0) > 0 }
            }
            if runsByFrequency, descriptor.startTime == nil {
                note("\(tripID) (runs by frequencies.txt: start_time is needed to tell its runs apart)")
                return Match(serviceDate: serviceDate)
            }
            guard serviceDate != nil else {
                note("\(tripID) (does not run on \(day.adding(days: -1)) or \(day))")
                return Match()
            }
            summary.matched += 1
            return Match(tripKey: found.key, serviceDate: serviceDate, runStart: runsByFrequency ? descriptor.startTime : nil)
        }

        /// Rule 1 without start_date: the day of the timestamp or the day before, where the trip
        /// runs, the one whose run starts nearest the timestamp.
        private func nearestServiceDate(of trip: (key: Int, service: Int), startTime: Int?, day: ServiceDate,
                                        lookups: RealtimeLookups) throws -> ServiceDate? {
            var dates: [Int] = []
            let days = try lookups.serviceDays.request.substituting(["service": trip.service, "date0": day.adding(days: -1).yyyymmdd, "date1": day.yyyymmdd])
            try database.forEachRow(days) { dates.append($0.int(lookups.serviceDays.position)) }
            var start = startTime
            if start == nil {
                try database.forEachRow(try lookups.firstDeparture.request.substituting(["trip": trip.key])) { start = $0.int(lookups.firstDeparture.position) }
            }
            return dates.compactMap { ServiceDate(yyyymmdd: $0) }.min { a, b in
                abs(feed.timeZone.noonMinusTwelveHours(a) + (start ?? 0) - timestamp)
                    < abs(feed.timeZone.noonMinusTwelveHours(b) + (start ?? 0) - timestamp)
            }
        }

        /// The feed's `realtime_feeds` row: the trip updates' timestamp and the reach of their delays.
        func writeFeedRow(_ dataset: RealtimeDataset, applier: RealtimeApplier) throws {
            let tripUpdateTimestamps = dataset.sources.filter { $0.tripUpdates > 0 }.compactMap(\.timestamp)
            try RowWriter(database, insertingEveryColumnOf: RealtimeSchema.feeds).write { row in
                row["feed"] = .integer(Int64(feed.key))
                row["timestamp"] = (tripUpdateTimestamps.min() ?? timestamp).sqlValue
                row["latest_delay"] = .integer(Int64(applier.latestDelay))
                row["earliest_delay"] = .integer(Int64(applier.earliestDelay))
                row["added_departures"] = .integer(Int64(applier.addedDepartures))
            }
        }
    }
}

extension RealtimeStore.Writer {
    /// Stores the vehicle positions, each with the key of its trip when the feed has it.
    mutating func writeVehicles(_ vehicles: [RealtimeDataset.Vehicle], lookups: RealtimeLookups, into summary: inout RealtimeSummary) throws {
        let insert = try RowWriter(database, insertingEveryColumnOf: RealtimeSchema.vehicles)
        for vehicle in vehicles {
            summary.vehicles += 1
            let tripKey = try vehicle.trip?.tripID.flatMap { try trip($0, lookups: lookups)?.key }
            let id = key()
            try insert.write { row in
                row["id"] = .integer(Int64(id))
                row["feed"] = .integer(Int64(feed.key))
                row["entity_id"] = .text(vehicle.entityID)
                row["vehicle_id"] = vehicle.vehicleID.sqlValue
                row["label"] = vehicle.label.sqlValue
                row["trip"] = tripKey.sqlValue
                row["trip_id"] = (vehicle.trip?.tripID).sqlValue
                row["route_id"] = (vehicle.trip?.routeID).sqlValue
                row["start_date"] = vehicle.trip?.startDate.map { SQLValue.integer(Int64($0.yyyymmdd)) } ?? .null
                row["lat"] = vehicle.latitude.sqlValue
                row["lon"] = vehicle.longitude.sqlValue
                row["bearing"] = vehicle.bearing.sqlValue
                row["speed"] = vehicle.speed.sqlValue
                row["stop_id"] = vehicle.stopID.sqlValue
                row["stop_sequence"] = vehicle.stopSequence.sqlValue
                row["status"] = vehicle.status.sqlValue
                row["timestamp"] = vehicle.timestamp.sqlValue
            }
        }
    }

    /// Stores the alerts: each alert's row, its texts (numbered per field), periods and entities.
    mutating func writeAlerts(_ alerts: [RealtimeDataset.Alert], into summary: inout RealtimeSummary) throws {
        let alertInsert = try RowWriter(database, insertingEveryColumnOf: RealtimeSchema.alerts)
        let textInsert = try RowWriter(database, insertingEveryColumnOf: RealtimeSchema.alertTexts)
        let periodInsert = try RowWriter(database, insertingEveryColumnOf: RealtimeSchema.alertPeriods)
        let entityInsert = try RowWriter(database, insertingEveryColumnOf: RealtimeSchema.alertEntities)
        for alert in alerts {
            summary.alerts += 1
            let id = Int64(key())
            try alertInsert.write { row in
                row["id"] = .integer(id)
                row["feed"] = .integer(Int64(feed.key))
                row["entity_id"] = .text(alert.entityID)
                row["cause"] = alert.cause.sqlValue
                row["effect"] = alert.effect.sqlValue
            }
            var positions: [String: Int] = [:]
            for text in alert.texts {
                let position = positions[text.field, default: 0]
                positions[text.field] = position + 1
                try textInsert.write { row in
                    row["alert"] = .integer(id)
                    row["field"] = .text(text.field)
                    row["position"] = .integer(Int64(position))
                    row["language"] = text.language.sqlValue
                    row["text"] = .text(text.text)
                }
            }
            for period in alert.periods {
                try periodInsert.write { row in
                    row["alert"] = .integer(id)
                    row["start"] = period.start.sqlValue
                    row["end"] = period.end.sqlValue
                }
            }
            for entity in alert.entities {
                try entityInsert.write { row in
                    row["alert"] = .integer(id)
                    row["agency_id"] = entity.agencyID.sqlValue
                    row["route_id"] = entity.routeID.sqlValue
                    row["route_type"] = entity.routeType.sqlValue
                    row["trip_id"] = entity.tripID.sqlValue
                    row["stop_id"] = entity.stopID.sqlValue
                    row["direction_id"] = entity.directionID.sqlValue
                }
            }
        }
    }

    /// Stores where the read's messages came from, in the order given, with what each held.
    func writeSources(_ sources: [RealtimeDataset.Source]) throws {
        let insert = try RowWriter(database, insertingEveryColumnOf: RealtimeSchema.sources)
        for (position, source) in sources.enumerated() {
            try insert.write { row in
                row["feed"] = .integer(Int64(feed.key))
                row["position"] = .integer(Int64(position))
                row["source"] = .text(source.name)
                row["timestamp"] = source.timestamp.sqlValue
                row["read_at"] = .integer(Int64(now))
                row["trip_updates"] = .integer(Int64(source.tripUpdates))
                row["vehicles"] = .integer(Int64(source.vehicles))
                row["alerts"] = .integer(Int64(source.alerts))
            }
        }
    }
}
