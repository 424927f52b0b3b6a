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
    private let primaryMemory: SearchMemory
    private let secondaryMemory: SearchMemory
    /// Whether the searches that show the answers keep only labels the question's search says a
    /// journey can pass through (`JourneySearch`'s guide). Always on; tests turn it off to hold
    /// the pruned searches to the whole ones.
    var guidesAnswerSearches = true
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


    private func walks(_ options: JourneyOptions) -> Walks {
        let key = "\(options.maximumWalk)/\(options.walkSpeed)"
        if let known = walksBySettings[key] { return known }
        let made = Walks(timetable: timetable, maximumDistance: options.maximumWalk, speed: options.walkSpeed)
        walksBySettings[key] = made
        return made
    }

    // MARK: Places

    /// Stop numbers of a place's boarding points (nil for a point).
    private func boardingPoints(_ place: JourneyPlace) -> [Int]? {
        guard case .stops(let keys) = place else { return nil }
        return keys.compactMap { timetable.stopNumber(ofKey: $0) }.filter { timetable.isBoardingPoint($0) }
    }

    /// Where a search from `place` starts, at `time` (engine time), walking `+1` or `-1` in time;
    /// a point's boarding points are those within `access` metres.
    private func sources(_ place: JourneyPlace, time: Int, walks: Walks, access: Double) -> [JourneySearch.Source] {
        if let points = boardingPoints(place) { return points.map { .init(stop: $0, time: time, walkedFromPoint: nil) } }
        guard case let .point(latitude, longitude) = place else { return [] }
        return walks.boardingPoints(near: latitude, longitude, within: access).map { stop, metres in
            let seconds = walks.seconds(forMetres: metres)
            return .init(stop: stop, time: time + seconds, walkedFromPoint: (seconds, Int(metres.rounded())))
        }
    }

    /// Where a search towards `place` ends (a point's boarding points within `access` metres).
    private func targets(_ place: JourneyPlace, walks: Walks, access: Double) -> [JourneySearch.Target] {
        if let points = boardingPoints(place) { return points.map { .init(stop: $0, walkToPoint: nil) } }
        guard case let .point(latitude, longitude) = place else { return [] }
        return walks.boardingPoints(near: latitude, longitude, within: access).map { stop, metres in
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

    private func isStop(_ place: JourneyPlace) -> Bool {
        if case .stops = place { return true }
        return false
    }

    // MARK: Questions

    /// The Pareto set of journeys from `from` to `to` leaving at or after `time`.
    public func plan(from: JourneyPlace, to: JourneyPlace, at time: Int, options: JourneyOptions) throws -> [Journey] {
        let started = start()
        defer { finish(started) }
        let walks = walks(options)
        let forward = search(.forward, reference: time, bound: JourneySearch.unreached, walks: walks, memory: primaryMemory,
                             rounds: options.maximumRides, options: options)
        try forward.run(sources: sources(from, time: time, walks: walks, access: options.maximumAccessWalk), targets: targets(to, walks: walks, access: options.maximumAccessWalk), walkFromSources: isStop(from))
        count(forward)
        var journeys = [directWalkJourney(from, to, leaving: time, walks: walks, access: options.maximumAccessWalk)].compactMap { $0 }
        var best = journeys.first?.arrival ?? Int.max
        for rounds in 0...options.maximumRides {
            guard rounds < forward.arrivals.count, let arrival = forward.arrivals[rounds], arrival.time < best else { continue }
            best = arrival.time
            // The journey leaving latest for this arrival with at most `rounds` rides.
            let backward = search(.backward, reference: time, bound: -time + 1, walks: walks, memory: secondaryMemory, rounds: rounds, options: options,
                                  guide: guidesAnswerSearches ? forward : nil)
            try backward.run(sources: sources(to, time: -arrival.time, walks: walks, access: options.maximumAccessWalk), targets: targets(from, walks: walks, access: options.maximumAccessWalk), walkFromSources: isStop(to))
            count(backward)
            guard let latest = backward.arrivals.last ?? nil else { continue }
            journeys.append(try journey(backward, round: backward.arrivals.count - 1, arrival: latest, walks: walks))
        }
        return journeys
    }

    /// The Pareto set of journeys from `from` to `to` arriving by `time`.
    public func plan(from: JourneyPlace, to: JourneyPlace, arrivingBy time: Int, options: JourneyOptions) throws -> [Journey] {
        let started = start()
        defer { finish(started) }
        let walks = walks(options)
        let backward = search(.backward, reference: time, bound: JourneySearch.unreached, walks: walks, memory: primaryMemory,
                              rounds: options.maximumRides, options: options)
        try backward.run(sources: sources(to, time: -time, walks: walks, access: options.maximumAccessWalk), targets: targets(from, walks: walks, access: options.maximumAccessWalk), walkFromSources: isStop(to))
        count(backward)
        var journeys = [directWalkJourney(from, to, arrivingBy: time, walks: walks, access: options.maximumAccessWalk)].compactMap { $0 }
        var best = journeys.first.map { -$0.departure } ?? Int.max
        for rounds in 0...options.maximumRides {
            guard rounds < backward.arrivals.count, let latest = backward.arrivals[rounds], latest.time < best else { continue }
            best = latest.time
            let departure = -latest.time
            // The journey leaving then that arrives earliest with at most `rounds` rides.
            let forward = search(.forward, reference: time, bound: time + 1, walks: walks, memory: secondaryMemory, rounds: rounds, options: options,
                                 guide: guidesAnswerSearches ? backward : nil)
            try forward.run(sources: sources(from, time: departure, walks: walks, access: options.maximumAccessWalk), targets: targets(to, walks: walks, access: options.maximumAccessWalk), walkFromSources: isStop(from))
            count(forward)
            guard let arrival = forward.arrivals.last ?? nil else { continue }
            journeys.append(try journey(forward, round: forward.arrivals.count - 1, arrival: arrival, walks: walks))
        }
        return journeys
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
        var best: [Int: (arrival: Int, rides: Int)] = [:]
        for round in forward.arrivals.indices {
            for stop in Set(forward.memory.dirtyCells.filter { $0 / timetable.stopCount == round }.map { $0 % timetable.stopCount }) {
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

    /// The lookups of runs' realtime changes so far, as `--explain` reports statements (one
    /// report per feed: its request, plan, the number of lookups and their time in all).
    public func realtimeReads() throws -> [ExecutedRequest] { try timetable.realtimeReadReports() }

    // MARK: Searches

    private func search(_ direction: JourneySearch.Direction, reference: Int, bound: Int, walks: Walks, memory: SearchMemory,
                        rounds: Int, options: JourneyOptions, guide: JourneySearch? = nil) -> JourneySearch {
        JourneySearch(timetable: timetable, walks: walks, memory: memory, direction: direction, reference: reference, bound: bound, rounds: rounds,
                      realtimeFeeds: options.realtimeFeeds, guide: guide)
    }

    private func count(_ search: JourneySearch) {
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
        return monotonicNow()
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
        lastCounters.searchSeconds = monotonicNow() - started
        lastCounters.patternsRead = read.patternsRead - readBefore.patternsRead
        lastCounters.bytesRead = read.bytesRead - readBefore.bytesRead
        lastCounters.realtimeRunsRead = read.realtimeRunsRead - readBefore.realtimeRunsRead
        lastCounters.readSeconds = read.readSeconds - readBefore.readSeconds
        lastCounters.realtimeSeconds = read.realtimeSeconds - readBefore.realtimeSeconds
    }

    /// The journey a search found for the target label `arrival` of round `round`, in time order.
    private func journey(_ search: JourneySearch, round: Int, arrival: JourneySearch.Arrival, walks: Walks) throws -> Journey {
        let forward = search.direction == .forward
        /// A leg as the search reached it, with real from/to stop numbers (nil: a point).
        struct Step {
            var mode: JourneyLeg.Mode
            var from: Int?
            var to: Int?
            var ride: (pattern: Int, day: Int, run: Int, board: Int, alight: Int)?
            var seconds = 0
            var metres = 0
        }
        /// A walk between two stops or a stop and the point, given in the search's direction.
        func walk(_ near: Int?, _ far: Int?, seconds: Int, metres: Int) -> Step {
            // Forward the search goes back from the far end; backward it goes on from the near end.
            forward ? Step(mode: .walk, from: far, to: near, seconds: seconds, metres: metres)
                    : Step(mode: .walk, from: near, to: far, seconds: seconds, metres: metres)
        }
        var steps: [Step] = []
        var (round, stop, byRide) = (round, arrival.stop, arrival.byRide)
        if let target = search.targetWalk[stop] ?? nil {
            // The walk between the search's last stop and its point: forward on to the
            // destination point, backward from the origin point.
            steps.append(Step(mode: .walk, from: forward ? stop : nil, to: forward ? nil : stop, seconds: target.seconds, metres: target.metres))
        }
        reconstruction: while true {
            if byRide {
                let parent = search.rideParent(round, stop)
                guard parent.pattern >= 0 else { break }
                let (pattern, day, run, enter, leave) = (Int(parent.pattern), Int(parent.day), Int(parent.run), Int(parent.enter), Int(parent.leave))
                let stops = try timetable.pattern(pattern).stops
                steps.append(Step(mode: .ride, ride: (pattern, day, run, forward ? enter : leave, forward ? leave : enter)))
                round -= 1
                stop = timetable.stopNumber(ofKey: stops[enter]) ?? 0
                byRide = !search.enteredFromWalk(round: round, stop: stop)
                continue
            }
            let parent = search.walkParent(round, stop)
            switch parent.from {
            case JourneySearch.WalkParent.fromPoint:
                // Walked from the point the search started at.
                steps.append(walk(stop, nil, seconds: Int(parent.seconds), metres: search.sourceWalk[stop]?.metres ?? 0))
                break reconstruction
            case 0...:
                let from = Int(parent.from)
                steps.append(walk(stop, from, seconds: Int(parent.seconds), metres: Int((walks.metres(from: from, to: stop) ?? 0).rounded())))
                stop = from
                byRide = round > 0
            default:
                break reconstruction
            }
        }
        if forward { steps.reverse() }

        // Rides keep their times; walks before the first ride end as it leaves, the others start
        // as the ride before arrives.
        var rides: [Int: (departure: Int, arrival: Int, trip: Int, from: Int, to: Int, calls: [JourneyCall], realtime: Bool)] = [:]
        for (index, step) in steps.enumerated() {
            guard let ride = step.ride else { continue }
            let pattern = try timetable.pattern(ride.pattern)
            let base = search.days[timetable.part(ofPattern: ride.pattern)][ride.day].base
            let calls = (ride.board...ride.alight).map { position in
                JourneyCall(stop: pattern.stops[position], arrival: base + pattern.arrival(run: ride.run, at: position),
                            departure: base + pattern.departure(run: ride.run, at: position))
            }
            rides[index] = (base + pattern.departure(run: ride.run, at: ride.board), base + pattern.arrival(run: ride.run, at: ride.alight),
                            pattern.trips[ride.run], pattern.stops[ride.board], pattern.stops[ride.alight], calls, pattern.isRealtime)
        }
        let walked = steps.map(\.seconds).reduce(0, +)
        var clock: Int
        if let first = rides.keys.min() {
            clock = rides[first]!.departure - steps[..<first].map(\.seconds).reduce(0, +)
        } else {
            // No ride: a walk, or nothing when the origin is the destination.
            clock = forward ? arrival.time - walked : -arrival.time
        }
        let departure = clock
        var legs: [JourneyLeg] = []
        for (index, step) in steps.enumerated() {
            if let ride = rides[index] {
                legs.append(JourneyLeg(mode: .ride, fromStop: ride.from, toStop: ride.to, departure: ride.departure, arrival: ride.arrival,
                                       trip: ride.trip, metres: 0, isRealtime: ride.realtime, path: ride.calls.map(\.stop), calls: ride.calls))
                clock = ride.arrival
            } else {
                legs.append(JourneyLeg(mode: .walk, fromStop: step.from.map(timetable.key(ofStop:)), toStop: step.to.map(timetable.key(ofStop:)),
                                       departure: clock, arrival: clock + step.seconds, trip: nil, metres: step.metres, isRealtime: false))
                clock += step.seconds
            }
        }
        return Journey(legs: legs, departure: departure, arrival: clock)
    }
}

/// Seconds on a monotonic clock.
func monotonicNow() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
