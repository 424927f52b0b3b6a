/// One round-based search (RAPTOR) over the planner's patterns, in either direction.
///
/// Forward, labels are arrival instants and round k holds the earliest arrivals with k rides.
/// Backward (for `--arrive-by`, and to find the latest departure of a journey), the same code runs
/// on negated instants over the patterns read from their last stop to their first: "enter" is
/// alighting, "leave" is boarding, walks are taken in reverse, and a smaller label is a later
/// departure. Each round scans the patterns calling at the stops whose labels improved in the
/// round before, once per service day that can reach the search (the day before, the day, the day
/// after, each in its feed's zone), then takes one walk from each stop a ride reached.
///
/// Two labels per stop and round: reached by a ride (a further ride from there must respect the
/// stop's change rule, and a walk may follow) and reached by a walk or as a source (a ride may
/// follow at once, a walk may not, except from a source that was not walked to).
///
/// A search that shows an answer of another search run the other way (its `guide`) keeps only
/// labels a journey of the question can pass through: the rider must be able to be at the stop
/// by then (after then, backward) with the rides left, which the guide's labels say. Forward
/// after `plan --at`'s search, for instance, no journey leaving at or after T reaches a stop
/// earlier than the forward labels there, so a backward label leaving it earlier is dropped with
/// everything it would have led to: only stops near the answer's journeys are scanned.
final class JourneySearch {
    enum Direction { case forward, backward }

    /// Where a search starts: stops with their labels (engine time) and how the rider got there.
    struct Source {
        let stop: StopNumber
        let time: Int
        /// Seconds and metres walked from a point to the stop (nil: the rider is at the stop).
        let walkedFromPoint: (seconds: Int, metres: Int)?
    }

    /// Where a search ends: stops, each with the seconds of a final walk to a point (nil: the stop
    /// itself is the end).
    struct Target {
        let stop: StopNumber
        let walkToPoint: (seconds: Int, metres: Int)?
    }

    /// The best target label of a round and where it came from.
    struct Arrival {
        let time: Int
        let stop: StopNumber
        let byRide: Bool
    }

    let timetable: PlannerTimetable
    let walks: Walks
    let direction: Direction
    /// Per feed part, the three service days: (date, noon − 12 h).
    let days: [[(date: ServiceDate, base: Int)]]
    /// Per feed part, whether its stored realtime data applies.
    let realtime: [Bool]
    /// Per feed part and service day, which runs run.
    private let runsOnDays: [[RunsOnDate]]
    /// Labels not below this (engine time) are not kept: the destination's best so far, or a bound.
    ///
    /// This and the other properties a search writes as it goes are read and written without
    /// Swift's dynamic exclusivity checks (`@exclusivity(unchecked)`: nothing holds an access to
    /// them across a call): the checks were a tenth of a question's instructions.
    @exclusivity(unchecked) var bound: Int

    /// Labels, parents and bests, reused from search to search.
    let memory: SearchMemory
    private let n: Int
    // The memory's slabs, held here so that reading them is a plain load.
    private let rideLabels: TimeSlab
    private let walkLabels: TimeSlab
    private let rideParents: Slab<RideParent>
    private let walkParents: Slab<WalkParent>
    private let enteredFromWalkSlab: Slab<Bool>
    private let bestRide: TimeSlab
    private let bestWalk: TimeSlab
    private let bestEnter: TimeSlab
    private let enterLimit: TimeSlab
    private let patternStart: Slab<Int32>
    private let rounds: Int
    /// The search run the other way whose answer this one shows (nil: none): a label of round j
    /// is kept only when the guide reaches the stop with at most `rounds − j` rides in time.
    private let guide: JourneySearch?
    /// Per stop, a lower bound on the engine time from it to any target (`PlannerBounds`), added
    /// to a label before it is held to `bound`; nil: none (nothing is pruned by it).
    private let remaining: Slab<Int>?
    /// Per stop, the fewest rides from it to any target (`PlannerBounds`): a label of round k
    /// there is kept only when k plus them is at most `rounds`; nil: none.
    private let ridesAhead: Slab<Int>?
    /// Per round, the best target label so far (with fewer rides included).
    @exclusivity(unchecked) private(set) var arrivals: [Arrival?] = []
    /// Per target stop, the walk from it to the point the search ends at (nil: none).
    private(set) var targetWalk: [StopNumber: (seconds: Int, metres: Int)?] = [:]
    /// Per source stop reached by walking from the point the search starts at, that walk.
    private(set) var sourceWalk: [StopNumber: (seconds: Int, metres: Int)] = [:]
    /// The earliest source label (engine time): nothing before it is of use.
    @exclusivity(unchecked) private var searchStart = Int.min
    /// The round being searched, and the first round in which the bound dropped a label or a
    /// service day that an unbounded search would have kept (Int.max: none): rounds before it
    /// are as an unbounded search would find them.
    @exclusivity(unchecked) private var currentRound = 0
    @exclusivity(unchecked) private(set) var firstRoundCut = Int.max
    /// Counters for `--explain`.
    @exclusivity(unchecked) private(set) var routesScanned = 0
    @exclusivity(unchecked) private(set) var labelsImproved = 0

    static let unreached = Int.max / 4

    /// A search in `direction` over the service days around the instant `reference` (the
    /// question's), keeping labels below `bound` (engine time), with the realtime data of the
    /// feeds keyed in `realtimeFeeds` applied.
    init(timetable: PlannerTimetable, walks: Walks, memory: SearchMemory, direction: Direction, reference: Int, bound: Int, rounds: Int,
         realtimeFeeds: Set<Int> = [], guide: JourneySearch? = nil, remaining: Slab<Int>? = nil, ridesAhead: Slab<Int>? = nil) {
        precondition(guide.map { $0.direction != direction && $0.rounds >= rounds } ?? true, "a guide runs the other way, with as many rides")
        self.timetable = timetable
        self.guide = guide
        self.remaining = remaining
        self.ridesAhead = ridesAhead
        self.memory = memory
        n = timetable.stopCount
        self.rounds = rounds
        memory.prepare(rounds: rounds)
        (rideLabels, walkLabels, rideParents, walkParents, enteredFromWalkSlab) =
            (memory.rideLabels, memory.walkLabels, memory.rideParents, memory.walkParents, memory.enteredFromWalk)
        (bestRide, bestWalk, bestEnter, enterLimit, patternStart) = (memory.bestRide, memory.bestWalk, memory.bestEnter, memory.enterLimit, memory.patternStart)
        self.walks = walks
        self.direction = direction
        self.bound = bound
        var days: [[(ServiceDate, Int)]] = []
        for part in timetable.parts {
            let zone = part.feed.timeZone
            let date = zone.localTime(of: reference).date
            days.append([-1, 0, 1].map { offset in
                let day = date.adding(days: offset)
                return (day, zone.noonMinusTwelveHours(day))
            })
        }
        self.days = days
        let realtime = timetable.parts.indices.map { timetable.hasRealtime(part: $0) && realtimeFeeds.contains(timetable.parts[$0].feed.key) }
        self.realtime = realtime
        runsOnDays = days.indices.map { part in days[part].map { timetable.runs(part: part, on: $0.0, realtime: realtime[part]) } }
    }

    deinit { memory.clean() }

    /// The ride label of `stop` in `round` (engine time; unreached when none).
    @inline(__always) func rideLabel(_ round: Int, _ stop: StopNumber) -> Int { rideLabels[round * n + stop.index] }
    /// The walk (or source) label of `stop` in `round`.
    @inline(__always) func walkLabel(_ round: Int, _ stop: StopNumber) -> Int { walkLabels[round * n + stop.index] }
    @inline(__always) func rideParent(_ round: Int, _ stop: StopNumber) -> RideParent { rideParents[round * n + stop.index] }
    @inline(__always) func walkParent(_ round: Int, _ stop: StopNumber) -> WalkParent { walkParents[round * n + stop.index] }

    private func setRide(_ round: Int, _ stop: StopNumber, _ time: Int, _ parent: RideParent) {
        let index = round * n + stop.index
        rideLabels[index] = time
        rideParents[index] = parent
        memory.dirtyCells.append(index)
        bestRide[stop] = time
        memory.dirtyStops.append(stop.index)
    }

    private func setWalk(_ round: Int, _ stop: StopNumber, _ time: Int, _ parent: WalkParent) {
        let index = round * n + stop.index
        walkLabels[index] = time
        walkParents[index] = parent
        memory.dirtyCells.append(index)
        bestWalk[stop] = time
        memory.dirtyStops.append(stop.index)
    }

    /// Whether a label `time` (engine time) at `stop` in round `round` can lie on a journey of the
    /// question: always without a guide; with one, when the guide's best label there with at most
    /// the rides left is at or before it, seen from the other end (their sum is ≤ 0, since each
    /// direction's engine time is the other's negated).
    @inline(__always) private func isOnSomeJourney(_ round: Int, _ stop: StopNumber, _ time: Int) -> Bool {
        guard let guide else { return true }
        var earlier = 0
        while earlier <= rounds - round {
            if guide.rideLabel(earlier, stop) + time <= 0 || guide.walkLabel(earlier, stop) + time <= 0 { return true }
            earlier += 1
        }
        return false
    }

    /// Whether a label `time` at `stop` in round `round` may still lead to a target label below
    /// `bound`: the rides left are enough to reach a target from the stop, and the label plus the
    /// least time from the stop on to a target is below the bound.
    @inline(__always) private func mayImprove(_ round: Int, _ stop: StopNumber, _ time: Int, _ bound: Int) -> Bool {
        if let ridesAhead, round + ridesAhead[stop] > rounds { return false }
        let least = time + (remaining?[stop] ?? 0)
        if least < bound { return true }
        if least < JourneySearch.unreached { noteCut() }
        return false
    }

    /// Notes that the bound dropped something an unbounded search would have kept, in the
    /// round being searched.
    private func noteCut() {
        firstRoundCut = min(firstRoundCut, currentRound)
    }

    /// Engine time of an instant.
    @inline(__always) private func engine(_ instant: Int) -> Int { direction == .forward ? instant : -instant }

    /// Runs up to `rounds` rides from `sources` towards `targets` (empty: no target, as `reach`):
    /// round 0 holds the sources and the walks from them; each further round marks the patterns
    /// calling at the stops the round before improved, scans them, takes one walk from each stop
    /// a ride reached, and records the best target label.
    func run(sources: [Source], targets: [Target], walkFromSources: Bool) throws {
        for target in targets { targetWalk[target.stop] = target.walkToPoint }
        for source in sources { if let walk = source.walkedFromPoint { sourceWalk[source.stop] = walk } }
        let unwalkedSources = Set(sources.filter { $0.walkedFromPoint == nil }.map(\.stop))
        searchStart = sources.map(\.time).min() ?? Int.min

        var thresholds = try enterThresholds(round: 0, stops: try seedRoundZero(sources, walkFromSources: walkFromSources))
        recordArrival(round: 0, unwalkedSources: unwalkedSources, hasTargets: !targets.isEmpty)
        var touchedPatterns: [Int] = []
        for round in stride(from: 1, through: rounds, by: 1) {
            guard !thresholds.isEmpty else { break }
            currentRound = round
            try markPatterns(calling: thresholds, into: &touchedPatterns)
            let reached = try scanMarkedPatterns(&touchedPatterns, thresholds: thresholds, round: round)
            let walked = try walk(from: reached, round: round)
            recordArrival(round: round, unwalkedSources: unwalkedSources, hasTargets: !targets.isEmpty)
            thresholds = try enterThresholds(round: round, stops: reached + walked)
        }
    }

    /// Round 0: the sources, and one walk from each (when the rider is at a stop, not a point);
    /// returns the stops whose labels were set.
    private func seedRoundZero(_ sources: [Source], walkFromSources: Bool) throws -> [StopNumber] {
        var marked: [StopNumber] = []
        for source in sources where mayImprove(0, source.stop, source.time, bound) && source.time < walkLabel(0, source.stop)
            && isOnSomeJourney(0, source.stop, source.time) {
            setWalk(0, source.stop, source.time, source.walkedFromPoint.map { WalkParent(from: WalkParent.fromPoint, seconds: Int32($0.seconds)) }
                                                    ?? WalkParent(from: WalkParent.source, seconds: 0))
            marked.append(source.stop)
        }
        guard walkFromSources else { return marked }
        for source in sources where source.time < bound && source.walkedFromPoint == nil {
            for (other, seconds) in try footpaths(of: source.stop)
            where source.time + seconds < bestWalk[other] && mayImprove(0, other, source.time + seconds, bound) && isOnSomeJourney(0, other, source.time + seconds) {
                setWalk(0, other, source.time + seconds, WalkParent(from: source.stop.rawValue, seconds: Int32(seconds)))
                marked.append(other)
            }
        }
        return marked
    }

    /// Marks the patterns calling at the stops of `thresholds`, each from the first position (in
    /// the direction of travel) a marked stop has in it (`patternStart`); `touched` becomes the
    /// patterns newly marked.
    @inline(__always)
    private func markPatterns(calling thresholds: [(stop: StopNumber, limit: Int)], into touched: inout [Int]) throws {
        touched.removeAll(keepingCapacity: true)
        for (stop, _) in thresholds {
            let part = timetable.part(ofStop: stop)
            for call in try timetable.calls(atStop: stop) {
                let number = timetable.patternNumber(part: part, id: call.pattern)
                let position = Int32(call.position)
                let known = patternStart[number] - 1
                if known < 0 { touched.append(number) }
                if known < 0 || (direction == .forward ? position < known : position > known) { patternStart[number] = position + 1 }
            }
        }
    }

    /// Scans the marked patterns in number order from their marked positions, entering rides at
    /// the stops of `thresholds` no earlier than theirs, and clears the marks; returns the stops
    /// the round's rides reached.
    private func scanMarkedPatterns(_ touched: inout [Int], thresholds: [(stop: StopNumber, limit: Int)], round: Int) throws -> [StopNumber] {
        var reached: [StopNumber] = []
        for (stop, limit) in thresholds { enterLimit[stop] = min(enterLimit[stop], limit) }
        orderByNumber(&touched)
        try timetable.readPatterns(touched)
        for number in touched {
            let start = Int(patternStart[number]) - 1
            patternStart[number] = 0
            try scan(try timetable.scanned(number), number: number, part: timetable.part(ofPattern: number), from: start, round: round, reached: &reached)
        }
        for (stop, _) in thresholds { enterLimit[stop] = JourneySearch.unreached }
        return reached
    }

    /// One walk from each stop a ride of `round` reached; returns the stops whose walk labels
    /// improved.
    @inline(__always)
    private func walk(from reached: [StopNumber], round: Int) throws -> [StopNumber] {
        var walked: [StopNumber] = []
        for stop in reached where rideLabel(round, stop) < JourneySearch.unreached {
            let time = rideLabel(round, stop)
            for (other, seconds) in try footpaths(of: stop)
            where time + seconds < bestWalk[other] && mayImprove(round, other, time + seconds, bound) && isOnSomeJourney(round, other, time + seconds) {
                setWalk(round, other, time + seconds, WalkParent(from: stop.rawValue, seconds: Int32(seconds)))
                walked.append(other)
                labelsImproved += 1
            }
        }
        return walked
    }

    /// Records the best target label reachable from `round`'s labels (or the rounds' before, when
    /// not better); with targets, it bounds the labels kept from then on. A source in
    /// `unwalkedSources` (no one walked to it) may still walk to the point the search ends at.
    private func recordArrival(round: Int, unwalkedSources: Set<StopNumber>, hasTargets: Bool) {
        var best = round > 0 ? arrivals[round - 1] : nil
        for (stop, walk) in targetWalk {
            if let walk {
                let ride = rideLabel(round, stop)
                if ride < JourneySearch.unreached, best == nil || ride + walk.seconds < best!.time {
                    best = Arrival(time: ride + walk.seconds, stop: stop, byRide: true)
                }
                if round == 0, walkParent(0, stop).from == WalkParent.source, unwalkedSources.contains(stop) {
                    let time = walkLabel(0, stop) + walk.seconds
                    if best == nil || time < best!.time { best = Arrival(time: time, stop: stop, byRide: false) }
                }
            } else {
                let ride = rideLabel(round, stop), walked = walkLabel(round, stop)
                if ride < JourneySearch.unreached, best == nil || ride < best!.time { best = Arrival(time: ride, stop: stop, byRide: true) }
                if walked < JourneySearch.unreached, best == nil || walked < best!.time { best = Arrival(time: walked, stop: stop, byRide: false) }
            }
        }
        arrivals.append(best)
        if let best, hasTargets { bound = min(bound, best.time) }
    }

    /// Puts the patterns a round touched in number order (the order they are scanned in): when
    /// they are more than a sixteenth of all, by reading the marks of every pattern in order (a
    /// stable sort of a thousand numbers cost ~35 times as much), else by sorting them.
    private func orderByNumber(_ touched: inout [Int]) {
        let count = timetable.patterns.count
        guard touched.count * 16 > count else {
            touched.sort()
            return
        }
        touched.removeAll(keepingCapacity: true)
        for number in 0..<count where patternStart[number] > 0 { touched.append(number) }
    }

    /// The walks a label at `stop` may take: forward leaving it, backward arriving at it.
    private func footpaths(of stop: StopNumber) throws -> [(stop: StopNumber, seconds: Int)] {
        try direction == .forward ? walks.walks(from: stop) : walks.walks(to: stop)
    }

    /// For the stops given, the label from which the next round may enter a ride there (the walk
    /// label, or the ride label plus the change time where a change is allowed), when it improves.
    private func enterThresholds(round: Int, stops: [StopNumber]) throws -> [(stop: StopNumber, limit: Int)] {
        var result: [(stop: StopNumber, limit: Int)] = []
        for stop in stops {
            var threshold = walkLabel(round, stop)
            var fromWalk = threshold < JourneySearch.unreached
            let ride = rideLabel(round, stop)
            if ride < JourneySearch.unreached, let change = try walks.change(at: stop), ride + change < threshold {
                threshold = ride + change
                fromWalk = false
            }
            guard threshold < bestEnter[stop], mayImprove(round, stop, threshold, bound) else { continue }
            bestEnter[stop] = threshold
            memory.dirtyStops.append(stop.index)
            enteredFromWalkSlab[round * n + stop.index] = fromWalk
            memory.dirtyCells.append(round * n + stop.index)
            result.append((stop, threshold))
        }
        return result
    }

    /// Scans `pattern` from `start` on each service day, riding the earliest catchable run; with
    /// realtime data applied, the runs it may change are ridden one by one as predicted.
    ///
    /// Forward, a day is not scanned when the day before was ridden from `start` on and all of
    /// this day's runs come after all of that day's (as they do unless a pattern's runs span more
    /// than a day): at every later stop a run of the day before is then already there earlier, so
    /// no label could improve. Before the destination is reached no bound closes the next day, and
    /// these scans were about as many as the day's own.
    private func scan(_ pattern: ScannedPattern, number: Int, part: Int, from start: Int, round: Int, reached: inout [StopNumber]) throws {
        routesScanned += 1
        let applyRealtime = realtime[part]
        let delays = applyRealtime ? timetable.delayRange(part: part) : (earliest: 0, latest: 0)
        let runsOnDays = self.runsOnDays[part]
        // The service day (noon − 12 h) whose stored runs were ridden from `start` on, if the last
        // scanned; nil when the day before was not scanned or not ridden from `start`.
        var riddenFromStart: Int? = nil
        for (dayIndex, day) in days[part].enumerated() {
            // Realtime data may move the day's runs by up to its delays.
            let (earliest, latest) = (pattern.earliestTime + delays.earliest, pattern.latestTime + delays.latest)
            guard isOpen(earliest, latest, on: day.base) else {
                riddenFromStart = nil
                continue
            }
            let runs = runsOnDays[dayIndex]
            if runs.starts[number] == RunsOnDate.unknown { try timetable.workOutRuns(of: number, part: part, on: runs) }
            let maskStart = runs.starts[number]
            if maskStart >= 0, isOpen(pattern.earliestTime, pattern.latestTime, on: day.base) {
                if direction == .forward, let before = riddenFromStart, before + pattern.latestTime < day.base + pattern.earliestTime {
                    // Every run of this day is later than every run of the one ridden from `start`.
                } else {
                    let fromStart = scanDay(pattern, number: number, running: runs.masks + Int(maskStart), dayIndex: dayIndex, base: day.base, from: start,
                                            round: round, reached: &reached)
                    riddenFromStart = fromStart ? day.base : nil
                }
            } else {
                riddenFromStart = nil
            }
            guard runs.realtime, let candidates = runs.candidates[number] else { continue }
            let stored = try timetable.pattern(number)
            for run in candidates {
                // A run's changes are read only when the search could use it, as late or as
                // early as its delays may make it.
                let span = stored.timeSpan(ofRun: run)
                guard isOpen(span.earliest + delays.earliest, span.latest + delays.latest, on: day.base),
                      let predicted = try timetable.predictedRun(of: stored, number: number, run: run, part: part, on: day.date, base: day.base)
                else { continue }
                let single = try timetable.scanned(predicted)
                guard isOpen(single.earliestTime, single.latestTime, on: day.base) else { continue }
                scanDay(single, number: predicted, running: RunsOnDate.single, dayIndex: dayIndex, base: day.base, from: start, round: round,
                        reached: &reached)
            }
        }
    }

    /// Whether runs whose usable times lie between `earliest` and `latest` (GTFS seconds of the
    /// service day starting at `base`) can be of use to the search: not when they all end before
    /// it starts, or all start after its bound (forward: instants; backward: negated instants).
    private func isOpen(_ earliest: Int, _ latest: Int, on base: Int) -> Bool {
        guard earliest <= latest else { return false }
        let (first, last) = direction == .forward ? (base + earliest, base + latest) : (-(base + latest), -(base + earliest))
        guard last >= searchStart else { return false }
        if first < bound { return true }
        if first < JourneySearch.unreached { noteCut() }
        return false
    }

    /// Scans `pattern` (number `number`) on the service day `dayIndex` starting at `base`, from
    /// position `start` in the direction of travel, riding the earliest catchable run of those
    /// `running` lets run; true when a run was entered at `start` itself.
    @discardableResult
    private func scanDay(_ pattern: ScannedPattern, number: Int, running: UnsafePointer<Bool>, dayIndex: Int, base: Int, from start: Int,
                         round: Int, reached: inout [StopNumber]) -> Bool {
        let count = pattern.stopCount
        let forward = direction == .forward
        var current = -1   // a run index of the pattern, -1: none yet
        var enteredAt = 0
        let bound = self.bound   // no label is set that changes it during a scan
        var enteredFromStart = false
        let runCount = pattern.runCount
        // The positions in the direction of travel: forward from `start` to the end, backward
        // from `start` down to the first.
        var position = start
        while forward ? position < count : position >= 0 {
            defer { position += forward ? 1 : -1 }
            let stored = pattern.stopNumber(at: position)
            guard stored >= 0 else { continue }
            let stop = StopNumber(rawValue: stored)
            if current >= 0, forward ? pattern.canAlight(at: position) : pattern.canBoard(at: position) {
                let time = forward ? base + pattern.arrival(run: current, at: position) : -(base + pattern.departure(run: current, at: position))
                if time < bestRide[stop], mayImprove(round, stop, time, bound), isOnSomeJourney(round, stop, time) {
                    if rideLabel(round, stop) == JourneySearch.unreached { reached.append(stop) }
                    setRide(round, stop, time, RideParent(pattern: Int32(number), run: Int32(current), enter: Int32(enteredAt),
                                                          leave: Int32(position), day: Int32(dayIndex)))
                    labelsImproved += 1
                }
            }
            let limit = enterLimit[stop]
            if limit < JourneySearch.unreached, forward ? pattern.canBoard(at: position) : pattern.canAlight(at: position),
               canImprove(pattern, on: current, runCount: runCount, at: position, limit: limit, base: base),
               let run = catchableRun(pattern, at: position, limit: limit, base: base, running: running),
               current < 0 || (forward ? run < current : run > current) {
                current = run
                enteredAt = position
                if position == start { enteredFromStart = true }
            }
        }
        return enteredFromStart
    }

    /// Whether a run better than `current` (forward: earlier; backward: later) might be entered at
    /// `position` at or after engine time `limit`: none when the run next to it in that direction
    /// cannot (runs never overtake one another, so no run beyond it can either). Saves the binary
    /// search at most of the stops a ridden run passes.
    @inline(__always)
    private func canImprove(_ pattern: ScannedPattern, on current: Int, runCount: Int, at position: Int, limit: Int, base: Int) -> Bool {
        guard current >= 0 else { return true }
        if direction == .forward {
            return current > 0 && pattern.departure(run: current - 1, at: position) >= limit - base
        } else {
            return current + 1 < runCount && pattern.arrival(run: current + 1, at: position) <= -limit - base
        }
    }

    /// The first run (forward: earliest departure; backward: latest arrival) that can be entered
    /// at `position` at or after engine time `limit` and runs that day.
    private func catchableRun(_ pattern: ScannedPattern, at position: Int, limit: Int, base: Int, running: UnsafePointer<Bool>) -> Int? {
        let runs = pattern.runCount
        if direction == .forward {
            let wanted = limit - base
            var low = 0, high = runs
            while low < high {
                let mid = (low + high) / 2
                if pattern.departure(run: mid, at: position) < wanted { low = mid + 1 } else { high = mid }
            }
            var run = low
            while run < runs {
                if running[run] { return run }
                run += 1
            }
            return nil
        } else {
            // -(base + arrival) >= limit  ⇔  arrival <= -limit - base
            let wanted = -limit - base
            var low = 0, high = runs
            while low < high {
                let mid = (low + high) / 2
                if pattern.arrival(run: mid, at: position) <= wanted { low = mid + 1 } else { high = mid }
            }
            var run = low - 1
            while run >= 0 {
                if running[run] { return run }
                run -= 1
            }
            return nil
        }
    }

    /// Whether the next ride from `stop` after `round` was entered from its walk label.
    func enteredFromWalk(round: Int, stop: StopNumber) -> Bool { enteredFromWalkSlab[round * n + stop.index] }
}
