/// The question's own search, pruned with the feed's stored lower bounds (`PlannerBounds`).
///
/// A label at a stop is kept only when its rides plus the fewest rides from the stop on to the
/// destination are within the search's, and it plus the least time from the stop on is below
/// the search's bound: no journey through a dropped label could arrive before it. Before the
/// destination is reached the bound is a limit the planner sets: an hour past the bound's
/// estimate from the origin. The answers below the limit are then exact (every label that could
/// lead to one was kept). When nothing at all was found, the search runs again with the limit
/// a quarter farther from the start (twice as far from the fourth try on); when the limit
/// dropped a label in a round that found nothing, it runs again for those fewer rides with no
/// limit (pruned by the fewest rides and the destination's best arrival).
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

    /// The first limit is the estimate plus this many seconds; a limit that finds nothing
    /// grows by a quarter of its span (`widened`). A limit is set only when it rules out, by
    /// itself, at least three quarters of the stops a journey could pass (the least time from
    /// the origin through them to the destination reaches past it): within a city it rules out
    /// little, and its searches for fewer rides scanned 2–3 times the patterns of one unlimited
    /// search (`PlannerBoundsTests`). Measured on 60 questions across the national feed
    /// (docs/journeys.md).
    static let limitSlack = 3_600

    /// The question's answers, fewest rides first: for each k the best target label with at
    /// most k rides, kept when better than with fewer rides and than the question's `best`,
    /// each shown by `show` (given the search that found it, the label and k).
    func answers(_ question: Question, options: JourneyOptions, walks: Walks,
                 show: (JourneySearch, JourneySearch.Arrival, Int) throws -> Journey?) throws -> [Journey] {
        let ahead = try self.ahead(from: question.sources, toward: question.targets, direction: question.direction, options: options)
        let start = question.sources.map(\.time).min() ?? 0
        var limit = firstLimit(question, ahead: ahead, start: start)
        var rounds = options.maximumRides
        var found: [[Journey]] = []
        var tries = 0
        while true {
            let (journeys, first, firstCut) = try answers(question, below: limit, rounds: rounds, ahead: ahead, options: options,
                                                          walks: walks, show: show)
            found.append(journeys)
            tries += 1
            // Done when the rides that found nothing lost nothing to the limit.
            guard limit < JourneySearch.unreached, first > 0, firstCut < first else { break }
            // Nothing found: again with a farther limit; else the fewer rides with no limit
            // (their journeys may arrive at any time).
            limit = first > rounds ? widened(limit, start: start, tries: tries) : JourneySearch.unreached
            rounds = min(rounds, first - 1)
        }
        return found.reversed().flatMap { $0 }
    }

    /// One search of the question keeping the labels that may reach a target below `limit`,
    /// with at most `rounds` rides: its answers below the limit, the fewest rides that found one
    /// (`rounds + 1`: none), and the first round the limit dropped anything in.
    private func answers(_ question: Question, below limit: Int, rounds: Int, ahead: Ahead?, options: JourneyOptions, walks: Walks,
                         show: (JourneySearch, JourneySearch.Arrival, Int) throws -> Journey?) throws -> (journeys: [Journey], first: Int, firstCut: Int) {
        let primary = search(question.direction, reference: question.reference, bound: limit, walks: walks, memory: primaryMemory,
                             rounds: rounds, options: options, ahead: ahead)
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

    /// The first search's limit: unlimited without bounds, when the bound says nothing, or when
    /// the limit would rule out less than three quarters of the stops a journey could pass.
    private func firstLimit(_ question: Question, ahead: Ahead?, start: Int) -> Int {
        guard let ahead else { return JourneySearch.unreached }
        let estimate = question.sources.map { $0.time + ahead.seconds[$0.stop] }.min() ?? JourneySearch.unreached
        guard estimate > PlannerBounds.neverPruned / 2, estimate < JourneySearch.unreached else { return JourneySearch.unreached }
        let span = estimate - start + JourneyPlanner.limitSlack
        // Of the stops a journey of the question can pass, those the limit rules out: the least
        // time from the sources through them to the destination reaches past it.
        var (reachable, ruledOut) = (0, 0)
        for (cell, through) in ahead.through.enumerated()
        where through < PlannerBounds.prunedAlways && through > PlannerBounds.neverPruned / 2 {
            reachable += ahead.stopsPerCell[cell]
            if through >= span { ruledOut += ahead.stopsPerCell[cell] }
        }
        guard 4 * ruledOut >= 3 * reachable else { return JourneySearch.unreached }
        return span > 2 * 86_400 ? JourneySearch.unreached : start + span
    }

    /// `limit` after `tries` searches found nothing: a quarter farther from the start for the
    /// first three, twice as far from then on (a question with no journey for hours does not
    /// search a dozen times), unlimited past two days.
    private func widened(_ limit: Int, start: Int, tries: Int) -> Int {
        let span = tries < 4 ? (limit - start) * 5 / 4 : (limit - start) * 2
        return span > 2 * 86_400 ? JourneySearch.unreached : start + span
    }

    /// What lies ahead of every stop toward a question's targets (`PlannerBounds`): the least
    /// engine time, and the fewest rides when they are stored.
    struct Ahead {
        let seconds: Slab<Int>
        let rides: Slab<Int>?
        /// Per cell, its stops and the least time through it from the question's sources to its
        /// targets (`PlannerBounds.prunedAlways` or more: none), for the first limit.
        let stopsPerCell: [Int]
        let through: [Int]
    }

    /// Per stop number, the least engine time and the fewest rides from it to any of `targets`
    /// (`PlannerBounds`), or nil when no sound bound applies to the question: pruning turned
    /// off, no targets, several feeds (bounds are kept within one), realtime data applied (a
    /// recovering delay makes a ride shorter than the timetable's), walks longer than the
    /// bounds allow, or none stored.
    private func ahead(from sources: [JourneySearch.Source], toward targets: [JourneySearch.Target], direction: JourneySearch.Direction,
                       options: JourneyOptions) throws -> Ahead? {
        guard prunesWithBounds, !targets.isEmpty, timetable.parts.count == 1,
              !(timetable.hasRealtime(part: 0) && options.realtimeFeeds.contains(timetable.parts[0].feed.key)),
              let bounds = try timetable.bounds(part: 0), options.maximumWalk <= bounds.walkLimit,
              bounds.cellOfStop.count == timetable.stopCount else { return nil }
        let cells = Set(targets.map { Int(bounds.cellOfStop[$0.stop.index]) })
        let perCell = try bounds.remaining(cells, toward: direction == .forward) { try timetable.boundRow(part: 0, id: $0) }
        for (slot, cell) in bounds.cellOfStop.enumerated() { remainingMemory[slot] = perCell[Int(cell)] }
        // From the sources' cells to every cell: the other direction's rows.
        let sourceCells = Set(sources.map { Int(bounds.cellOfStop[$0.stop.index]) })
        let fromSources = try bounds.remaining(sourceCells, toward: direction != .forward) { try timetable.boundRow(part: 0, id: $0) }
        let through = zip(fromSources, perCell).map { from, on in
            from >= PlannerBounds.prunedAlways || on >= PlannerBounds.prunedAlways ? PlannerBounds.prunedAlways : from + on
        }
        let rides = try bounds.fewestRides(cells, toward: direction == .forward, row: { try timetable.boundByteRow(part: 0, id: $0) })
        if let rides { for (slot, cell) in bounds.cellOfStop.enumerated() { ridesAheadMemory[slot] = rides[Int(cell)] } }
        return Ahead(seconds: remainingMemory, rides: rides == nil ? nil : ridesAheadMemory, stopsPerCell: bounds.stopsPerCell, through: through)
    }
}
