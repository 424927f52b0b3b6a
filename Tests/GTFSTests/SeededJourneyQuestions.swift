import XCTest
import FetchRequest
import TestSupport
@testable import GTFS

/// One seeded random journey question over a feed, asked of two planners to hold one to the
/// other (`PlannerBoundsTests`, `JourneySearchGuideTests`).
struct SeededJourneyQuestion {
    let from: Stop
    let to: Stop
    let origin: JourneyPlace
    let destination: JourneyPlace
    /// The instant asked (engine time), a departure or (`arrivingBy`) an arrival.
    let time: Int
    let arrivingBy: Bool
    let options: JourneyOptions

    /// `planner`'s answers to the question.
    func answers(of planner: JourneyPlanner) throws -> [Journey] {
        arrivingBy ? try planner.plan(from: origin, to: destination, arrivingBy: time, options: options)
                   : try planner.plan(from: origin, to: destination, at: time, options: options)
    }

    var description: String { "\(from.stopID) → \(to.stopID) \(arrivingBy ? "arriving by" : "at") \(time)" }

    /// `count` questions over the boarding points (with a position) of the one feed in
    /// `transit`, drawn from `seed`: stop to stop, point to stop and stop to point (the point
    /// `pointOffset` degrees from the stop), each by `--at` and `--arrive-by`, between 05:00 and
    /// 22:59 on a day with service; question i walks `walks[i % walks.count]` metres at most and
    /// rides `rides(i)` times at most.
    static func make(count: Int, seed: UInt64, transit: TransitDatabase, planner: JourneyPlanner, walks: [Double],
                     rides: (Int) -> Int, pointOffset: Double) throws -> [SeededJourneyQuestion] {
        let stops = try transit.database.fetch(FetchRequest<Stop>().filter(Stop.boardingPoints()))
            .filter { $0.latitude != nil && $0.longitude != nil }
        let zone = transit.feeds[0].timeZone
        let dates = try XCTUnwrap(transit.feeds[0].serviceDates)
        var random = SeededNumbers(seed: seed &+ UInt64(stops.count))
        return try (0..<count).map { index in
            let from = stops[random.below(stops.count)], to = stops[random.below(stops.count)]
            // A day with service (a feed's calendar may span years around a few months of it).
            let span = max(dates.upperBound.dayNumber - dates.lowerBound.dayNumber, 1)
            var date = dates.lowerBound
            for _ in 0..<1000 {
                date = dates.lowerBound.adding(days: random.below(span))
                if try !planner.timetable.services(part: 0, on: date).mask.isEmpty { break }
            }
            let time = zone.instant(ofLocal: date, hour: 5 + random.below(18), minute: random.below(60), second: 0)
            var options = JourneyOptions()
            options.maximumWalk = walks[index % walks.count]
            options.maximumRides = rides(index)
            let places = (index / 2) % 3
            return SeededJourneyQuestion(
                from: from, to: to,
                origin: places == 1 ? .point(latitude: from.latitude! + pointOffset, longitude: from.longitude!) : .stops(keys: [from.key]),
                destination: places == 2 ? .point(latitude: to.latitude!, longitude: to.longitude! + pointOffset) : .stops(keys: [to.key]),
                time: time, arrivingBy: index % 2 == 1, options: options)
        }
    }
}
