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
        let asked = try SeededJourneyQuestion.make(count: questions, seed: UInt64(questions) &* 7919, transit: transit, planner: guided,
                                                   walks: [300, 500, 800], rides: { 2 + $0 % 4 }, pointOffset: 0.001)
        var (answers, guidedScans, wholeScans) = (0, 0, 0)
        for (index, question) in asked.enumerated() {
            let expected = try question.answers(of: whole), found = try question.answers(of: guided)
            XCTAssertEqual(found, expected, "question \(index): \(question.description)", file: file, line: line)
            answers += expected.count
            guidedScans += guided.lastCounters.routesScanned
            wholeScans += whole.lastCounters.routesScanned
        }
        XCTAssertGreaterThan(answers, questions / 2, "most questions have journeys to compare", file: file, line: line)
        XCTAssertLessThan(guidedScans, wholeScans, "the guided searches scan fewer patterns", file: file, line: line)
    }
}
