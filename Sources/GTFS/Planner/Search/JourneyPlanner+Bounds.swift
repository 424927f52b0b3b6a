/// The question's own search, pruned with the feed's stored lower bounds (`PlannerBounds`).
///
/// A label at a stop is kept only when it plus the least time from the stop on to the
/// destination is below the search's bound: no journey through a dropped label could arrive
/// before it. Before the destination is reached the bound is a limit the planner sets: a little
/// past the bound's estimate from the origin. The answers below the limit are then exact (every
/// label that could lead to one was kept). When the limit dropped a label in a round that found
/// nothing, the search runs again for those fewer rides: with no limit (pruned only by the
/// destination's best arrival), or, when nothing at all was found, first with a limit four
/// times as far.
/// So a journey across a country reads the cities near its way, not every city it could reach.
extension JourneyPlanner {
    /// What a question's own search needs: its direction, where it starts and ends, and the
    /// arrival (engine time) an answer must beat: a direct walk's, or none.
    struct Question {
        let direction: JourneySearch.Direction
        let reference: Int
        let sources: [JourneySearch.Source]
        let targets: [JourneySearch.Target]
        let walkFromSources: Bool
        let best: Int
    }

    /// The first limit is the estimate's span times this, plus `limitSlack` seconds, when the
    /// estimate is at least `shortestLimitedEstimate` seconds: a shorter question (across a
    /// city) is searched unlimited, pruned by its best arrival alone, as a limit there mostly
    /// cost a second search for its fewer rides (1.1–1.6 × the scans on the demo feed and a
    /// nine-city national feed, `PlannerBoundsTests`).
    static let limitFactor = 1.5
    static let limitSlack = 3_600
    static let shortestLimitedEstimate = 7_200

    /// The question's answers, fewest rides first: for each k the best target label with at
    /// most k rides, kept when better than with fewer rides and than the question's `best`,
    /// each shown by `show` (given the search that found it, the label and k).
    func answers(_ question: Question, options: JourneyOptions, walks: Walks,
                 show: (JourneySearch, JourneySearch.Arrival, Int) throws -> Journey?) throws -> [Journey] {
        let remaining = try self.remaining(toward: question.targets, direction: question.direction, options: options)
        let start = question.sources.map(\.time).min() ?? 0
        var limit = firstLimit(question, remaining: remaining, start: start)
        var rounds = options.maximumRides
        var found: [[Journey]] = []
        var tries = 0
        while true {
            let (journeys, first, firstCut) = try answers(question, below: limit, rounds: rounds, remaining: remaining, options: options,
                                                          walks: walks, show: show)
            found.append(journeys)
            tries += 1
            // Done when the rides that found nothing lost nothing to the limit.
            guard limit < JourneySearch.unreached, first > 0, firstCut < first else { break }
            // Nothing found: once more with a limit four times as far; else the fewer rides
            // with no limit (their journeys may arrive at any time).
            limit = first > rounds && tries == 1 ? widened(limit, start: start) : JourneySearch.unreached
            rounds = min(rounds, first - 1)
        }
        return found.reversed().flatMap { $0 }
    }

    /// One search of the question keeping the labels that may reach a target below `limit`,
    /// with at most `rounds` rides: its answers below the limit, the fewest rides that found one
    /// (`rounds + 1`: none), and the first round the limit dropped anything in.
    private func answers(_ question: Question, below limit: Int, rounds: Int, remaining: Slab<Int>?, options: JourneyOptions, walks: Walks,
                         show: (JourneySearch, JourneySearch.Arrival, Int) throws -> Journey?) throws -> (journeys: [Journey], first: Int, firstCut: Int) {
        let primary = search(question.direction, reference: question.reference, bound: limit, walks: walks, memory: primaryMemory,
                             rounds: rounds, options: options, remaining: remaining)
        try primary.run(sources: question.sources, targets: question.targets, walkFromSources: question.walkFromSources)
        count(primary)
        let reached = primary.arrivals.indices.filter { primary.arrivals[$0].map { $0.time < limit } ?? false }
        let first = reached.first ?? rounds + 1
        var journeys: [Journey] = []
        var best = question.best
        for rides in reached {
            guard let arrival = primary.arrivals[rides], arrival.time < best else { continue }
            best = arrival.time
            if let journey = try show(primary, arrival, rides) { journeys.append(journey) }
        }
        return (journeys, first, primary.firstRoundCut)
    }

    /// The first search's limit: unlimited without bounds, when the bound says nothing, or for
    /// a short question.
    private func firstLimit(_ question: Question, remaining: Slab<Int>?, start: Int) -> Int {
        guard let remaining else { return JourneySearch.unreached }
        let estimate = question.sources.map { $0.time + remaining[$0.stop] }.min() ?? JourneySearch.unreached
        guard estimate > PlannerBounds.neverPruned / 2, estimate < JourneySearch.unreached,
              estimate - start >= JourneyPlanner.shortestLimitedEstimate else { return JourneySearch.unreached }
        let span = Int(Double(estimate - start) * JourneyPlanner.limitFactor) + JourneyPlanner.limitSlack
        return span > 2 * 86_400 ? JourneySearch.unreached : start + span
    }

    /// `limit` four times as far from the start, unlimited past two days.
    private func widened(_ limit: Int, start: Int) -> Int {
        let span = 4 * (limit - start)
        return span > 2 * 86_400 ? JourneySearch.unreached : start + span
    }

    /// Per stop number, the least engine time from it to any of `targets` (`PlannerBounds`), or
    /// nil when no sound bound applies to the question: pruning turned off, no targets, several
    /// feeds (bounds are kept within one), realtime data applied (a recovering delay makes a
    /// ride shorter than the timetable's), walks longer than the bounds allow, or none stored.
    private func remaining(toward targets: [JourneySearch.Target], direction: JourneySearch.Direction, options: JourneyOptions) throws -> Slab<Int>? {
        guard prunesWithBounds, !targets.isEmpty, timetable.parts.count == 1,
              !(timetable.hasRealtime(part: 0) && options.realtimeFeeds.contains(timetable.parts[0].feed.key)),
              let bounds = try timetable.bounds(part: 0), options.maximumWalk <= bounds.walkLimit,
              bounds.cellOfStop.count == timetable.stopCount else { return nil }
        let cells = Set(targets.map { Int(bounds.cellOfStop[$0.stop.index]) })
        let perCell = try bounds.remaining(cells, toward: direction == .forward) { try timetable.boundRow(part: 0, id: $0) }
        for (slot, cell) in bounds.cellOfStop.enumerated() { remainingMemory[slot] = perCell[Int(cell)] }
        return remainingMemory
    }
}
