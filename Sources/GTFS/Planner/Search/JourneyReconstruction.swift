/// The journey a search found, built back from its labels (as nigiri's routing/raptor/
/// reconstruct.h): from a target label, the parents are followed back to a source, one leg per
/// ride or walk, then the legs are put in time order and timed.
struct JourneyReconstruction {
    let timetable: PlannerTimetable
    let search: JourneySearch
    let walks: Walks

    /// A leg as the search reached it, with real from/to stop numbers (nil: a point).
    private struct Step {
        var mode: JourneyLeg.Mode
        var from: StopNumber?
        var to: StopNumber?
        var ride: (pattern: Int, day: Int, run: Int, board: Int, alight: Int)?
        var seconds = 0
        var metres = 0
    }

    /// A ride's times, trip, ends (keys) and calls, as the journey shows it.
    private typealias TimedRide = (departure: Int, arrival: Int, trip: Int, from: Int, to: Int, calls: [JourneyCall], realtime: Bool)

    private var forward: Bool { search.direction == .forward }

    /// The journey for the target label `arrival` of round `round`, in time order.
    func journey(round: Int, arrival: JourneySearch.Arrival) throws -> Journey {
        var steps = try steps(round: round, arrival: arrival)
        if forward { steps.reverse() }
        return timed(steps, rides: try rides(of: steps), arrival: arrival)
    }

    /// A walk between two stops or a stop and the point, given in the search's direction.
    private func walk(_ near: StopNumber?, _ far: StopNumber?, seconds: Int, metres: Int) -> Step {
        // Forward the search goes back from the far end; backward it goes on from the near end.
        forward ? Step(mode: .walk, from: far, to: near, seconds: seconds, metres: metres)
                : Step(mode: .walk, from: near, to: far, seconds: seconds, metres: metres)
    }

    /// The legs from the target label back to a source, in the order the parents are followed
    /// (forward: from the destination back; backward: from the origin on).
    private func steps(round: Int, arrival: JourneySearch.Arrival) throws -> [Step] {
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
                // A scan enters a run only at a stop the timetable numbers.
                guard let entered = timetable.stopNumber(ofKey: stops[enter]) else {
                    preconditionFailure("run \(run) of pattern \(pattern) was entered at stop key \(stops[enter]), which the timetable does not number")
                }
                stop = entered
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
                let from = StopNumber(rawValue: parent.from)
                steps.append(walk(stop, from, seconds: Int(parent.seconds), metres: Int((try walks.metres(from: from, to: stop) ?? 0).rounded())))
                stop = from
                byRide = round > 0
            default:
                break reconstruction
            }
        }
        return steps
    }

    /// The rides among `steps` (by index), with their times, trips, ends and calls.
    private func rides(of steps: [Step]) throws -> [Int: TimedRide] {
        var rides: [Int: TimedRide] = [:]
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
        return rides
    }

    /// The journey of `steps` (in time order): rides keep their times; walks before the first
    /// ride end as it leaves, the others start as the ride before arrives.
    private func timed(_ steps: [Step], rides: [Int: TimedRide], arrival: JourneySearch.Arrival) -> Journey {
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
