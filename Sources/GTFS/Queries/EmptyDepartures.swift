import FetchRequest

/// Why a departures question found nothing, and what to try instead: an empty answer is usually a
/// feed downloaded long ago (its service over), or a quiet hour, and a rider needs to know which.
/// OneBusAway says "out of range"; we name the dates and a moment that answers.
public enum EmptyDepartures: Sendable, Equatable {
    /// No stop was asked: none within the radius of the point.
    case noStops
    /// No trip of the feeds asked boards at these stops on any date (stop_times has no row for them).
    case notServed
    /// The window lies outside the service dates of every feed asked; `next` is the first
    /// departure of the nearest week of service (the last week when the window is after it, the
    /// first when before), nil when that week has none.
    case outsideService(dates: ClosedRange<ServiceDate>, next: Departure?)
    /// The window is in the service dates and empty: `next` is the first departure in the week
    /// after it (nil: none then either).
    case noneInWindow(next: Departure?)
}

extension DeparturesQuery {
    /// A week: how far the next departure is looked for after an empty window.
    static let lookAhead = 7 * 86_400

    /// Why this query found no departure (call it only when it found none), in the zone `zone`
    /// the question was read in. The timetable alone is asked (realtime data aside): what a
    /// rider is told to try must be in the timetable.
    public func whyEmpty(on transit: TransitDatabase, zone: AgencyTimeZone) throws -> EmptyDepartures {
        guard !stopKeys.isEmpty else { return .noStops }
        let askedFeeds = transit.selectedFeeds.filter { feed in stopKeys.contains { FeedKeys.feed(of: $0) == feed.key } }
        guard try askedFeeds.contains(where: { try boards(in: $0, on: transit) }) else { return .notServed }
        let ranges = askedFeeds.compactMap(\.serviceDates)
        guard let first = ranges.map(\.lowerBound).min(), let last = ranges.map(\.upperBound).max() else { return .notServed }
        let opening = zone.localTime(of: start), closing = zone.localTime(of: start + duration)
        if opening.date > last || closing.date < first {
            // The same time of day, in the nearest week of service.
            let week = opening.date > last ? max(first, last.adding(days: -6)) : first
            let from = zone.instant(ofLocal: week, hour: opening.hour, minute: opening.minute, second: 0)
            return .outsideService(dates: first...last, next: try nextDeparture(from: from, on: transit))
        }
        return .noneInWindow(next: try nextDeparture(from: start + duration + 1, on: transit))
    }

    /// The first departure of the timetable in the week from `from`.
    private func nextDeparture(from: Int, on transit: TransitDatabase) throws -> Departure? {
        var query = DeparturesQuery(stopKeys: stopKeys, start: from, duration: Self.lookAhead)
        query.limit = 1
        return try query.run(on: transit).first
    }

    /// Whether some stop time of `feed` at these stops lets a rider board (one index search).
    ///
    ///     SELECT "stop_times"."stop" FROM "stop_times_1" AS "stop_times"
    ///     WHERE "stop_times"."stop" IN (?, …) AND "stop_times"."pickup_type" IS NOT ? LIMIT ?
    private func boards(in feed: Feed, on transit: TransitDatabase) throws -> Bool {
        var fetch = TransitModel.fetch("stop_times", feedKey: feed.key)
        let stop = fetch.key(of: "stop")
        fetch.filter(stop.isIn(stopKeys.filter { FeedKeys.feed(of: $0) == feed.key }))
        fetch.filter(fetch.required("pickup_type").isNot(1))
        fetch.select(stop, as: "stop")
        var query = fetch.requiredQuery()
        query.limit = 1
        var found = false
        try transit.database.forEachRow(SQLGenerator.prepare(query)) { _ in found = true }
        return found
    }
}
