import FetchRequest

/// One feed's part of a departures query as it is read (`DeparturesQuery.run`): the departures
/// found so far and the realtime changes still to place, in named steps.
///
/// Realtime data (rules 5-7) only ever changes the stop times it has a row for, so those rows
/// are read first (`readChanges`, from their own table alone), over the window widened by the
/// feed's delays. The timetable's requests (`readTimetable`) keep the plain window and ask for
/// `limit` plus as many rows as realtime changes there (at most that many of its first rows can
/// leave or move); a changed row is moved by its delay, or dropped when skipped, cancelled or
/// moved out, and past the first `limit` unchanged rows of a date the others are not decoded.
/// The changed stop times that the timetable's rows did not bring (moved in from outside the
/// window, or past its limit) are then read one by one (`readUnseenChanges`), earliest predicted
/// first, while they can still be among the first `limit`.
struct DepartureRun {
    let query: DeparturesQuery
    let transit: TransitDatabase
    let feed: Feed
    let stopHeadsign: PreparedRequest?
    let realtime: (window: RealtimeWindow, changes: PreparedRequest, stopTime: PreparedRequest)?
    let start: Int, end: Int
    var departures: [Departure] = []
    /// The departures from timetable rows (by index), whose headsign is still the trip's: the
    /// stop time's identity, by which its stop_headsign is read (kept only when it will be).
    var tripHeadsigns: [Int: (trip: Int, sequence: Int)] = [:]
    /// Changed stop times scheduled in the window: their delay (nil: no departure, rules 5-6).
    private var changes: [ScheduledStopTime: (delay: Int?, date: Int)] = [:]
    /// Changed stop times scheduled outside the window whose predicted moment is in it.
    private var movedIn: [(stopTime: ScheduledStopTime, delay: Int, date: Int)] = []
    /// The number of changes in the window per service date.
    private var changesPerDate: [Int: Int] = [:]
    /// The dates whose timetable request stopped at its limit: only there can a changed stop
    /// time in the window be a departure the request did not bring.
    private var datesCutByTheLimit: Set<Int> = []

    init(query: DeparturesQuery, transit: TransitDatabase, feed: Feed, stopHeadsign: PreparedRequest?,
         realtime: (window: RealtimeWindow, changes: PreparedRequest, stopTime: PreparedRequest)?) {
        self.query = query
        self.transit = transit
        self.feed = feed
        self.stopHeadsign = stopHeadsign
        self.realtime = realtime
        start = query.start
        end = query.start + query.duration
    }

    /// Reads the feed's realtime changes over the window widened by its delays.
    mutating func readChanges() throws {
        guard let realtime else { return }
        let request = try realtime.changes.substituting(["from": start - realtime.window.latestDelay, "to": end - realtime.window.earliestDelay])
        let c = DepartureColumns.change
        try transit.database.forEachRow(request) { row in
            let stopTime = ScheduledStopTime(trip: row.int(c.trip), sequence: row.int(c.sequence), scheduled: row.int(c.scheduled))
            let delay = row.int(c.skipped) == 0 ? row.optionalInt(c.delay) : nil
            if stopTime.scheduled >= start, stopTime.scheduled <= end {
                changes[stopTime] = (delay, row.int(c.serviceDate))
            } else if let delay, stopTime.scheduled + delay >= start, stopTime.scheduled + delay <= end {
                movedIn.append((stopTime, delay, row.int(c.serviceDate)))
            }
        }
        for change in changes.values { changesPerDate[change.date, default: 0] += 1 }
    }

    /// The realtime change of `stopTime`, taken out of `changes` (it is read once).
    private mutating func takeChange(_ stopTime: ScheduledStopTime) -> (delay: Int?, date: Int)? {
        changes.isEmpty ? nil : changes.removeValue(forKey: stopTime)
    }

    /// The departure of a timetable row at `stopTime` with its realtime `change` applied (nil:
    /// none in the window). A changed row predicted after `latest` is not decoded (it cannot be
    /// listed).
    private func departure(_ row: Row, date: ServiceDate, gtfsTime: Int, stopTime: ScheduledStopTime, change: (delay: Int?, date: Int)?,
                           latest: Int = .max) -> Departure? {
        guard let change else {
            return Departure(feed: feed.name, row: row, serviceDate: date, gtfsTime: gtfsTime, instant: stopTime.scheduled)
        }
        guard let delay = change.delay else {
            // Cancelled: listed at the timetable's moment when asked (`changes` holds only stop
            // times scheduled in the window).
            guard query.includesCancelled, stopTime.scheduled <= latest else { return nil }
            return Departure(feed: feed.name, row: row, serviceDate: date, gtfsTime: gtfsTime, instant: stopTime.scheduled,
                             isRealtime: true, isCancelled: true)
        }
        guard stopTime.scheduled + delay >= start, stopTime.scheduled + delay <= min(end, latest) else { return nil }
        return Departure(feed: feed.name, row: row, serviceDate: date, gtfsTime: gtfsTime, instant: stopTime.scheduled + delay,
                         delay: delay, isRealtime: true)
    }

    /// Reads the timetable's departures of one service date (`template`, its stops bound),
    /// applying the realtime changes of the rows it brings.
    mutating func readTimetable(_ template: TimetableTemplate.StopsBound, date: ServiceDate, base: Int, from: Int, to: Int) throws {
        let limit = query.limit
        let dateLimit = limit > 0 ? limit + changesPerDate[date.yyyymmdd, default: 0] : -1
        let request = try template.binding(date: date.yyyymmdd, from: from, to: to, limit: dateLimit)
        var rows = 0
        var unchanged = 0
        // Once the date's `limit`-th unchanged departure is read, nothing later can be listed.
        var latest = Int.max
        let (departureColumn, identity) = (DepartureColumns.shown.departure, DepartureColumns.identity)
        try transit.database.forEachRow(request) { row in
            rows += 1
            let gtfsTime = row.int(departureColumn)
            let stopTime = ScheduledStopTime(trip: row.int(identity.trip), sequence: row.int(identity.sequence), scheduled: base + gtfsTime)
            guard realtime != nil else {
                if stopHeadsign != nil { tripHeadsigns[departures.count] = (stopTime.trip, stopTime.sequence) }
                departures.append(Departure(feed: feed.name, row: row, serviceDate: date, gtfsTime: gtfsTime, instant: stopTime.scheduled))
                return
            }
            let change = takeChange(stopTime)
            if change == nil {
                guard limit <= 0 || unchanged < limit else { return }
                unchanged += 1
                if unchanged == limit { latest = stopTime.scheduled }
            }
            if let departure = departure(row, date: date, gtfsTime: gtfsTime, stopTime: stopTime, change: change, latest: latest) {
                if stopHeadsign != nil { tripHeadsigns[departures.count] = (stopTime.trip, stopTime.sequence) }
                departures.append(departure)
            }
        }
        if dateLimit > 0, rows >= dateLimit { datesCutByTheLimit.insert(date.yyyymmdd) }
    }

    /// Reads the runs of frequency-based trips on one service date (`template`). Runs start at
    /// start_time, start_time + headway, … before end_time; a stop is reached its template offset
    /// after the run leaves the first stop.
    mutating func readFrequencyRuns(_ template: PreparedRequest, date: ServiceDate, base: Int, from: Int, to: Int) throws {
        let f = DepartureColumns.frequency
        let departureColumn = DepartureColumns.shown.departure
        try transit.database.forEachRow(try template.substituting(["date": date.yyyymmdd])) { row in
            let offset = row.int(departureColumn) - (row.optionalInt(f.firstDeparture) ?? row.int(departureColumn))
            let (periodStart, periodEnd, headway) = (row.int(f.start), row.int(f.end), row.int(f.headway))
            guard headway > 0 else { return }
            let firstRun = max(0, (from - offset - periodStart + headway - 1) / headway)
            var runStart = periodStart + firstRun * headway
            while runStart < periodEnd, runStart + offset <= to {
                let gtfsTime = runStart + offset
                if gtfsTime >= from, base + gtfsTime >= start, base + gtfsTime <= end,
                   case let stopTime = ScheduledStopTime(trip: row.int(f.trip), sequence: row.int(f.sequence), scheduled: base + gtfsTime),
                   let departure = departure(row, date: date, gtfsTime: gtfsTime, stopTime: stopTime, change: takeChange(stopTime)) {
                    departures.append(departure)
                }
                runStart += headway
            }
        }
    }

    /// Reads the changed stop times listed that no timetable row brought. One scheduled in the
    /// window whose date's request did not stop at its limit is no departure (a trip's last stop,
    /// no pickup, a trip not running that day): every one there was brought. Frequency-based trips
    /// are not in that request: theirs are all looked at (`frequencyBased`). A cancelled one
    /// (delay nil) is listed at its timetable moment, when asked.
    mutating func readUnseenChanges(frequencyBased: Bool) throws {
        guard let realtime else { return }
        let limit = query.limit
        let unseen = changes.compactMap { stopTime, change in
            change.delay != nil || query.includesCancelled ? (stopTime: stopTime, delay: change.delay, date: change.date) : nil
        }
            .filter { $0.stopTime.scheduled + ($0.delay ?? 0) >= start && $0.stopTime.scheduled + ($0.delay ?? 0) <= end }
            .filter { frequencyBased || datesCutByTheLimit.contains($0.date) }
        let candidates = movedIn.map { (stopTime: $0.stopTime, delay: Optional($0.delay), date: $0.date) } + unseen
        var instants = departures.map(\.instant).sorted()
        for (stopTime, delay, yyyymmdd) in candidates.sorted(by: { $0.stopTime.scheduled + ($0.delay ?? 0) < $1.stopTime.scheduled + ($1.delay ?? 0) }) {
            let moment = stopTime.scheduled + (delay ?? 0)
            // Once `limit` departures leave before it, neither it nor any later one is listed.
            if limit > 0, instants.count >= limit, instants[limit - 1] < moment { break }
            guard let date = ServiceDate(yyyymmdd: yyyymmdd) else { continue }
            let request = try realtime.stopTime.substituting(["trip": stopTime.trip, "sequence": stopTime.sequence, "date": yyyymmdd])
            try transit.database.forEachRow(request) { row in
                let departure = Departure(feed: feed.name, row: row, serviceDate: date, gtfsTime: stopTime.scheduled - feed.timeZone.noonMinusTwelveHours(date),
                                          instant: moment, delay: delay, isRealtime: true, isCancelled: delay == nil)
                departures.append(departure)
                instants.insert(departure.instant, at: instants.firstIndex { $0 > departure.instant } ?? instants.endIndex)
            }
        }
    }
}
