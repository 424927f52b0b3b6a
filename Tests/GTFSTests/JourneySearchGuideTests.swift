import XCTest
import FetchRequest
import TestSupport
@testable import GTFS
import GTFSZip

/// The searches that show a question's answers (backward after `plan --at`, forward after
/// `--arrive-by`) keep only labels the question's own search says a journey can pass through
/// (`JourneySearch`'s guide). These tests hold the guided searches to the whole ones on random
/// questions: the same journeys, leg for leg, in fewer pattern scans.
final class JourneySearchGuideTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() { directory = TemporaryDirectory() }
    override func tearDown() { directory = nil }

    func testGuidedAnswerSearchesShowTheSameJourneysOnTheDemoFeed() throws {
        try assertGuidedEqualsWhole(feed: Paths.demoFeed, questions: 120)
    }

    func testGuidedAnswerSearchesShowTheSameJourneysOnTheSharedFeeds() throws {
        let names = ["vilnius.zip", "cairns_gtfs.zip"]
        let paths = names.compactMap { Paths.sharedFeed($0) }
        guard paths.count == names.count else { throw XCTSkip("../shared/feeds is absent: skipped the shared feeds") }
        for path in paths { try assertGuidedEqualsWhole(feed: path, questions: 150) }
    }

    /// Imports `feed` and asks `questions` random questions (stop to stop, point to stop and stop
    /// to point, by `--at` and `--arrive-by`, three walk radii) twice: with the answers' searches guided and
    /// without. The journeys must be equal; the guided searches must scan fewer patterns in all.
    private func assertGuidedEqualsWhole(feed: String, questions: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = directory.file("db-\(UUID().uuidString).sqlite")
        _ = try Importer(feedPath: feed, databasePath: path, openFeed: openFeedOrZip(at:)).run()
        let transit = try TransitDatabase(path: path)
        let guided = try JourneyPlanner(transit: transit)
        let whole = try JourneyPlanner(transit: transit)
        whole.guidesAnswerSearches = false
        let stops = try transit.database.fetch(FetchRequest<Stop>().filter(Stop.boardingPoints()))
            .filter { $0.latitude != nil && $0.longitude != nil }
        let zone = transit.feeds[0].timeZone
        let dates = try XCTUnwrap(transit.feeds[0].serviceDates)
        var random = SeededNumbers(seed: UInt64(questions) &* 7919 &+ UInt64(stops.count))
        var (answers, guidedScans, wholeScans) = (0, 0, 0)
        for index in 0..<questions {
            let from = stops[random.below(stops.count)], to = stops[random.below(stops.count)]
            // A day with service (a feed's calendar may span years around a few months of it).
            let span = max(dates.upperBound.dayNumber - dates.lowerBound.dayNumber, 1)
            var date = dates.lowerBound
            for _ in 0..<1000 {
                date = dates.lowerBound.adding(days: random.below(span))
                if try !guided.timetable.services(part: 0, on: date).mask.isEmpty { break }
            }
            let time = zone.instant(ofLocal: date, hour: 5 + random.below(18), minute: random.below(60), second: 0)
            var options = JourneyOptions()
            options.maximumWalk = [300, 500, 800][index % 3]
            options.maximumRides = 2 + index % 4
            // Stop to stop, point to stop, stop to point, each asked with --at and --arrive-by.
            let places = (index / 2) % 3
            let origin: JourneyPlace = places == 1 ? .point(latitude: from.latitude! + 0.001, longitude: from.longitude!) : .stops(keys: [from.key])
            let destination: JourneyPlace = places == 2 ? .point(latitude: to.latitude!, longitude: to.longitude! + 0.001) : .stops(keys: [to.key])
            func ask(_ planner: JourneyPlanner) throws -> [Journey] {
                index % 2 == 0 ? try planner.plan(from: origin, to: destination, at: time, options: options)
                               : try planner.plan(from: origin, to: destination, arrivingBy: time, options: options)
            }
            let expected = try ask(whole), found = try ask(guided)
            XCTAssertEqual(found, expected, "question \(index): \(from.stopID) → \(to.stopID) at \(time)", file: file, line: line)
            answers += expected.count
            guidedScans += guided.lastCounters.routesScanned
            wholeScans += whole.lastCounters.routesScanned
        }
        XCTAssertGreaterThan(answers, questions / 2, "most questions have journeys to compare", file: file, line: line)
        XCTAssertLessThan(guidedScans, wholeScans, "the guided searches scan fewer patterns", file: file, line: line)
    }
}
