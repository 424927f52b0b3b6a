import FetchRequest
#if canImport(Glibc)
import Glibc
#endif

/// "How do I get from A to B": the Pareto set over (rides, arrival) of journeys between two
/// places, and `reach`, from the planner's stored timetable of the selected feeds.
///
/// `plan(at:)`: for k = 0…N the earliest arrival leaving at or after T with at most k rides, kept
/// when strictly earlier than with fewer rides; each answer is shown by the journey that leaves
/// latest for that arrival with at most k rides (a backward search from the arrival).
/// `plan(arrivingBy:)` is the mirror: for each k the latest departure arriving by T, kept when
/// strictly later than with fewer rides, shown by the journey leaving then that arrives earliest.
public final class JourneyPlanner {
    let timetable: PlannerTimetable
    private var walksBySettings: [String: Walks] = [:]
    /// Memory for the search of a question and for the searches that show its answers (alive at
    /// the same time), reused by every question.
    let primaryMemory: SearchMemory
    let secondaryMemory: SearchMemory
    /// Per stop, the lower bound of the question being searched (`JourneyPlanner+Bounds.swift`),
    /// made when a question first prunes and rewritten by each.
    lazy var remainingMemory = Slab<Int>(count: timetable.stopCount, fill: 0)
    /// Per stop, the fewest rides to the destination of the question being searched, when stored.
    lazy var ridesAheadMemory = Slab<Int>(count: timetable.stopCount, fill: 0)
    /// Whether the searches that show the answers keep only labels the question's search says a
    /// journey can pass through (`JourneySearch`'s guide). Always on; tests turn it off to hold
    /// the pruned searches to the whole ones.
    var guidesAnswerSearches = true
    /// Whether a question's search prunes with the feed's stored lower bounds
    /// (`JourneyPlanner+Bounds.swift`). Always on; tests turn it off to hold the pruned answers
    /// to the whole ones.
    var prunesWithBounds = true
    /// What the last question cost, for `--explain`.
    public private(set) var lastCounters = Counters()

    /// The search's own counters.
    public struct Counters: Sendable, Equatable {
        public var searches = 0
        public var rounds = 0
        public var routesScanned = 0
        public var labelsImproved = 0
        public var patternsRead = 0
        public var bytesRead = 0
        /// Runs whose realtime changes were read (each then ridden as predicted, or not at all).
        public var realtimeRunsRead = 0
        /// Seconds of the process spent reading patterns, and runs' realtime changes.
        public var readSeconds = 0.0
        public var realtimeSeconds = 0.0
        /// Seconds spent searching (reading patterns included).
        public var searchSeconds = 0.0
    }

    /// A planner over the feeds `transit` has selected; reads their stop indexes, and which of
    /// them have realtime data stored (applied to the questions whose options name them).
    public init(transit: TransitDatabase) throws {
        let realtime = try transit.realtimeFeeds().mapValues(\.window)
        timetable = try PlannerTimetable(database: transit.database, feeds: transit.selectedFeeds, realtime: realtime)
        primaryMemory = SearchMemory(stopCount: timetable.stopCount, patternCount: timetable.patterns.count)
        secondaryMemory = SearchMemory(stopCount: timetable.stopCount, patternCount: timetable.patterns.count)
    }


    func walks(_ options: JourneyOptions) -> Walks {
        let key = "\(options.maximumWalk)/\(options.walkSpeed)"
        if let known = walksBySettings[key] { return known }
        let made = Walks(timetable: timetable, maximumDistance: options.maximumWalk, speed: options.walkSpeed)
        walksBySettings[key] = made
        return made
    }

    // MARK: Places

    /// Stop numbers of a place's boarding points (nil for a point).
    private func boardingPoints(_ place: JourneyPlace) throws -> [StopNumber]? {
        guard case .stops(let keys) = place else { return nil }
        return try keys.compactMap { timetable.stopNumber(ofKey: $0) }.filter { try timetable.isBoardingPoint($0) }
    }

    /// Where a search from `place` starts, at `time` (engine time), walking `+1` or `-1` in time;
    /// a point's boarding points are those within `access` metres.
    func sources(_ place: JourneyPlace, time: Int, walks: Walks, access: Double) throws -> [JourneySearch.Source] {
        if let points = try boardingPoints(place) { return points.map { .init(stop: $0, time: time, walkedFromPoint: nil) } }
        guard case let .point(latitude, longitude) = place else { return [] }
        return try walks.boardingPoints(near: latitude, longitude, within: access).map { stop, metres in
            let seconds = walks.seconds(forMetres: metres)
            return .init(stop: stop, time: time + seconds, walkedFromPoint: (seconds, Int(metres.rounded())))
        }
    }

    /// Where a search towards `place` ends (a point's boarding points within `access` metres).
    func targets(_ place: JourneyPlace, walks: Walks, access: Double) throws -> [JourneySearch.Target] {
        if let points = try boardingPoints(place) { return points.map { .init(stop: $0, walkToPoint: nil) } }
        guard case let .point(latitude, longitude) = place else { return [] }
        return try walks.boardingPoints(near: latitude, longitude, within: access).map { stop, metres in
            .init(stop: stop, walkToPoint: (walks.seconds(forMetres: metres), Int(metres.rounded())))
        }
    }

    /// The direct walk between two points, when they are within `access` metres.
    private func directWalk(_ from: JourneyPlace, _ to: JourneyPlace, walks: Walks, access: Double) -> (seconds: Int, metres: Int)? {
        guard case let .point(a, b) = from, case let .point(c, d) = to else { return nil }
        let distance = Geo.distance(a, b, c, d)
        guard distance <= access else { return nil }
        return (walks.seconds(forMetres: distance), Int(distance.rounded()))
    }

    /// Point to point within the access walk: one walk, leaving at `leaving` (or arriving by
    /// `arrivingBy`), kept when no ride arrives earlier.
    private func directWalkJourney(_ from: JourneyPlace, _ to: JourneyPlace, leaving: Int? = nil, arrivingBy: Int? = nil,
                                   walks: Walks, access: Double) -> Journey? {
        guard let walk = directWalk(from, to, walks: walks, access: access) else { return nil }
        let start = leaving ?? (arrivingBy! - walk.seconds)
        let leg = JourneyLeg(mode: .walk, fromStop: nil, toStop: nil, departure: start, arrival: start + walk.seconds,
                             trip: nil, metres: walk.metres, isRealtime: false)
        return Journey(legs: [leg], departure: start, arrival: start + walk.seconds)
    }

    func isStop(_ place: JourneyPlace) -> Bool {
        if case .stops = place { return true }
        return false
    }

    // MARK: Questions

    /// The Pareto set of journeys from `from` to `to` leaving at or after `time`.
    public func plan(from: JourneyPlace, to: JourneyPlace, at time: Int, options: JourneyOptions) throws -> [Journey] {
        let started = start()
        defer { finish(started) }
        let walks = walks(options)
        let access = options.maximumAccessWalk
        let walk = directWalkJourney(from, to, leaving: time, walks: walks, access: access)
        let question = Question(direction: .forward, reference: time, sources: try sources(from, time: time, walks: walks, access: access),
                                targets: try targets(to, walks: walks, access: access), walkFromSources: isStop(from),
                                best: walk?.arrival ?? Int.max)
        let rides = try answers(question, options: options, walks: walks) { forward, arrival, rounds in
            // The journey leaving latest for this arrival with at most `rounds` rides.
            let backward = self.search(.backward, reference: time, bound: -time + 1, walks: walks, memory: self.secondaryMemory, rounds: rounds,
                                       options: options, guide: self.guidesAnswerSearches ? forward : nil)
            try backward.run(sources: try self.sources(to, time: -arrival.time, walks: walks, access: access),
                             targets: try self.targets(from, walks: walks, access: access), walkFromSources: self.isStop(to))
            self.count(backward)
            guard let latest = backward.arrivals.last ?? nil else { return nil }
            return try self.journey(backward, arrival: latest, walks: walks)
        }
        return [walk].compactMap { $0 } + rides
    }

    /// The Pareto set of journeys from `from` to `to` arriving by `time`.
    public func plan(from: JourneyPlace, to: JourneyPlace, arrivingBy time: Int, options: JourneyOptions) throws -> [Journey] {
        let started = start()
        defer { finish(started) }
        let walks = walks(options)
        let access = options.maximumAccessWalk
        let walk = directWalkJourney(from, to, arrivingBy: time, walks: walks, access: access)
        let question = Question(direction: .backward, reference: time, sources: try sources(to, time: -time, walks: walks, access: access),
                                targets: try targets(from, walks: walks, access: access), walkFromSources: isStop(to),
                                best: walk.map { -$0.departure } ?? Int.max)
        let rides = try answers(question, options: options, walks: walks) { backward, latest, rounds in
            // The journey leaving then that arrives earliest with at most `rounds` rides.
            let forward = self.search(.forward, reference: time, bound: time + 1, walks: walks, memory: self.secondaryMemory, rounds: rounds,
                                      options: options, guide: self.guidesAnswerSearches ? backward : nil)
            try forward.run(sources: self.sources(from, time: -latest.time, walks: walks, access: access),
                            targets: self.targets(to, walks: walks, access: access), walkFromSources: self.isStop(from))
            self.count(forward)
            guard let arrival = forward.arrivals.last ?? nil else { return nil }
            return try self.journey(forward, arrival: arrival, walks: walks)
        }
        return [walk].compactMap { $0 } + rides
    }

    /// Every boarding point reached from `from` leaving at `time` within `seconds`, with its
    /// earliest arrival and the fewest rides reaching it then, by arrival.
    public func reach(from: JourneyPlace, at time: Int, within seconds: Int, options: JourneyOptions) throws -> [ReachedStop] {
        let started = start()
        defer { finish(started) }
        let walks = walks(options)
        let forward = search(.forward, reference: time, bound: time + seconds + 1, walks: walks, memory: primaryMemory,
                             rounds: options.maximumRides, options: options)
        try forward.run(sources: sources(from, time: time, walks: walks, access: options.maximumAccessWalk), targets: [], walkFromSources: isStop(from))
        count(forward)
        var best: [StopNumber: (arrival: Int, rides: Int)] = [:]
        for round in forward.arrivals.indices {
            for stop in Set(forward.memory.dirtyCells.filter { $0 / timetable.stopCount == round }.map { StopNumber($0 % timetable.stopCount) }) {
                let arrival = min(forward.rideLabel(round, stop), forward.walkLabel(round, stop))
                guard arrival <= time + seconds else { continue }
                if let known = best[stop], known.arrival <= arrival { continue }
                best[stop] = (arrival, round)
            }
        }
        return best.map { ReachedStop(stop: timetable.key(ofStop: $0.key), arrival: $0.value.arrival, rides: $0.value.rides) }
            .sorted { ($0.arrival, $0.stop) < ($1.arrival, $1.stop) }
    }

    /// The reads of the planner's patterns so far, as `--explain` reports statements (one
    /// report per feed whose patterns were read: its request, plan, rows and time in all).
    public func patternReads() throws -> [ExecutedRequest] { try timetable.patternReadReports() }

    /// The patterns read in batches so far (on a server: `PlannerTimetable.readPatterns`), as
    /// `--explain` reports a statement, with how many runs of it there were.
    public func patternBatchReads() throws -> [(executed: ExecutedRequest, runs: Int)] { try timetable.patternBatchReadReports() }

    /// The reads of the stop index's blocks and tiles so far (`StopBlock`, `StopTile`), as
    /// `--explain` reports statements (one report per feed that read any).
    public func stopIndexReads() throws -> [ExecutedRequest] { try timetable.stopIndexReadReports() }

    /// The reads of the stored lower bounds so far (`PlannerBounds`), as `--explain` reports
    /// statements (one report per feed whose bounds were read).
    public func boundReads() throws -> [ExecutedRequest] { try timetable.boundReadReports() }

    /// The lookups of runs' realtime changes so far, as `--explain` reports statements (one
    /// report per feed: its request, plan, the number of lookups and their time in all).
    public func realtimeReads() throws -> [ExecutedRequest] { try timetable.realtimeReadReports() }

    // MARK: Searches

    func search(_ direction: JourneySearch.Direction, reference: Int, bound: Int, walks: Walks, memory: SearchMemory,
                rounds: Int, options: JourneyOptions, guide: JourneySearch? = nil, ahead: Ahead? = nil) -> JourneySearch {
        JourneySearch(timetable: timetable, walks: walks, memory: memory, direction: direction, reference: reference, bound: bound, rounds: rounds,
                      realtimeFeeds: options.realtimeFeeds, guide: guide,
                      remaining: ahead?.seconds, ridesAhead: ahead?.rides)
    }

    /// The journey `search` found for `arrival`, the target label of its last round.
    func journey(_ search: JourneySearch, arrival: JourneySearch.Arrival, walks: Walks) throws -> Journey {
        try JourneyReconstruction(timetable: timetable, search: search, walks: walks).journey(round: search.arrivals.count - 1, arrival: arrival)
    }

    func count(_ search: JourneySearch) {
        lastCounters.searches += 1
        lastCounters.rounds += max(search.arrivals.count - 1, 0)
        lastCounters.routesScanned += search.routesScanned
        lastCounters.labelsImproved += search.labelsImproved
    }

    /// What the timetable had read when a question started: a planner kept for many questions
    /// (`TransitDatabase.journeyPlanner()`) counts each question's reading apart.
    private var readBefore = Counters()

    /// Starts a question's counters; returns when it started.
    private func start() -> Double {
        lastCounters = Counters()
        readBefore = readSoFar
        return monotonicSeconds()
    }

    /// What the timetable has read since the planner was made.
    private var readSoFar: Counters {
        var read = Counters()
        read.patternsRead = timetable.patternsRead
        read.bytesRead = timetable.bytesRead
        read.realtimeRunsRead = timetable.realtimeRunsRead
        read.readSeconds = timetable.readSeconds
        read.realtimeSeconds = timetable.realtimeSeconds
        return read
    }

    /// Ends a question's counters: its time, and what it read.
    private func finish(_ started: Double) {
        let read = readSoFar
        lastCounters.searchSeconds = monotonicSeconds() - started
        lastCounters.patternsRead = read.patternsRead - readBefore.patternsRead
        lastCounters.bytesRead = read.bytesRead - readBefore.bytesRead
        lastCounters.realtimeRunsRead = read.realtimeRunsRead - readBefore.realtimeRunsRead
        lastCounters.readSeconds = read.readSeconds - readBefore.readSeconds
        lastCounters.realtimeSeconds = read.realtimeSeconds - readBefore.realtimeSeconds
    }
}

