import GTFS

/// Why `plan` found no journey or `reach` no ride, worked out in the order a rider would check:
/// the dates (outside every feed's service), the walk at either end (no stop within
/// --max-access-walk of a point), then the limits (a journey with more rides, or longer walks, exists).
struct EmptyJourneyQuestion {
    let transit: TransitDatabase
    /// The question's ends as typed ("FROM", "TO") and read.
    let ends: [(name: String, end: JourneyEnd)]
    /// The moment asked, and the zone its wall-clock time was read in.
    let time: Int
    let zone: AgencyTimeZone
    let options: JourneyOptions

    /// The walk and ride limits tried when the asked ones find nothing.
    static let widestRides = 16
    static let widerWalk = 2000.0

    /// The note for the service dates, or a point far from every stop; nil when neither is why.
    func datesOrWalks() throws -> AnswerNote? {
        let date = zone.localTime(of: time).date
        let keys = Set(ends.compactMap(\.end.feedKey))
        let feeds = transit.selectedFeeds.filter { keys.isEmpty || keys.contains($0.key) }
        let ranges = feeds.compactMap(\.serviceDates)
        if let first = ranges.map(\.lowerBound).min(), let last = ranges.map(\.upperBound).max(),
           date.adding(days: 1) < first || date.adding(days: -1) > last {
            // The same weekday and time in the nearest week of service.
            var day = date > last ? last : first
            while day.weekdayFromMonday != date.weekdayFromMonday { day = day.adding(days: date > last ? -1 : 1) }
            let local = zone.localTime(of: time)
            let at = "\(day) \(local.hourMinute)"
            return AnswerNote(kind: "outside_service",
                                   fields: [("first_date", .text(first.description)), ("last_date", .text(last.description)), ("at", .text(at))],
                                   sentence: "The timetable runs from \(first) to \(last); \(date) is outside it: try --at \"\(at)\"")
        }
        for (name, end) in ends {
            guard case .point(let latitude, let longitude) = end.place else { continue }
            var nearby = NearbyStopsQuery(latitude: latitude, longitude: longitude)
            nearby.radius = options.maximumAccessWalk
            nearby.platforms = true
            nearby.limit = 1
            guard try nearby.run(on: transit).isEmpty else { continue }
            nearby.radius = 10_000
            let nearest = try nearby.run(on: transit).first?.distance
            let metres = nearest.map { Int(($0 / 100).rounded(.up)) * 100 }
            return AnswerNote(kind: "no_stop_within_walk",
                                   fields: [("end", .text(name.lowercased())), ("max_access_walk_m", .number(options.maximumAccessWalk, decimals: 0)),
                                            ("nearest_m", nearest.map { .number($0, decimals: 0) } ?? .null)],
                                   sentence: "No stop within --max-access-walk \(formatDistance(options.maximumAccessWalk)) of \(name) \(end.text)"
                                    + (metres.map { $0 <= 10_000 ? ": the nearest is \(formatDistance(nearest!)) away; try --max-access-walk \($0)" : "" }
                                       ?? ": none within 10 km either"))
        }
        return nil
    }

    /// The note for a plan that found nothing: the dates, the walks, then wider limits tried
    /// with `replan` (the same question under other options).
    func noJourney(replan: (JourneyOptions) throws -> [Journey]) throws -> AnswerNote {
        if let note = try datesOrWalks() { return note }
        var wider = options
        if wider.maximumRides < Self.widestRides {
            wider.maximumRides = Self.widestRides
            if let rides = try replan(wider).map(\.rides).min() {
                return AnswerNote(kind: "max_rides", fields: [("max_rides", .integer(options.maximumRides)), ("rides", .integer(rides))],
                                       sentence: "A journey needs \(rides) rides: try --max-rides \(rides)")
            }
        }
        if wider.maximumWalk < Self.widerWalk {
            wider.maximumWalk = Self.widerWalk
            if !(try replan(wider)).isEmpty {
                return AnswerNote(kind: "max_walk", fields: [("max_walk_m", .number(options.maximumWalk, decimals: 0)),
                                                                  ("works_with_m", .number(Self.widerWalk, decimals: 0))],
                                       sentence: "With walks of up to \(formatDistance(Self.widerWalk)) there is a journey: try --max-walk \(Int(Self.widerWalk))")
            }
        }
        return AnswerNote(kind: "no_journey", fields: [],
                               sentence: "No trip links these places in the three service days searched, even with \(Self.widestRides) rides and walks of \(formatDistance(max(options.maximumWalk, Self.widerWalk)))")
    }
}
