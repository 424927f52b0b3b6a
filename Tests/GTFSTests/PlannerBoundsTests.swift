import XCTest
import Foundation
import FetchRequest
import TestSupport
@testable import GTFS
import GTFSZip

/// A question's search drops the labels from which the stored lower bounds say the destination
/// cannot be reached in time (`PlannerBounds`, `JourneyPlanner+Bounds.swift`). These tests hold
/// the pruned searches to the whole ones on seeded random questions across the cities of
/// national feeds grown by `../shared/feeds/make-national-feed.py`, and pin the bounds on a feed
/// whose times go back along a trip, where no bound is sound.
final class PlannerBoundsTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() { directory = TemporaryDirectory() }
    override func tearDown() { directory = nil }

    func testPrunedSearchesAnswerAsTheWholeOnesOnTheDemoFeed() throws {
        try assertPrunedEqualsWhole(feed: Paths.demoFeed, questions: 150, expectFewerScans: false)
    }

    func testPrunedSearchesAnswerAsTheWholeOnesAcrossTheCitiesOfNationalFeeds() throws {
        for (source, cities) in [("vilnius.zip", 4), ("cairns_gtfs.zip", 6), ("sample_gtfs.zip", 9)] {
            guard let feed = try NationalFeed.make(from: source, cities: cities, in: directory) else { continue }
            try assertPrunedEqualsWhole(feed: feed, questions: 500, expectFewerScans: source == "vilnius.zip")
        }
    }

    /// Trip BACK calls at C ten minutes before B, which comes before it: a ride may arrive before
    /// it left. Every cell from which that ride can be reached has no bound (searches never prune
    /// there), the cells that cannot keep theirs, and the journey over it is found either way.
    func testFeedWhoseTimesGoBackAlongATripKeepsNoBoundWhereThatRideCanBeReached() throws {
        let feed = try FeedFixture()
            .with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nA,A,52.50,13.40\nB,B,52.60,13.40\nC,C,52.70,13.40\n"
                + "D,D,52.80,13.40\nE,E,53.50,14.40\nF,F,53.60,14.40\n")
            .with("trips.txt", "route_id,service_id,trip_id\nR,WD,BACK\nR,WD,ON\nR,WD,FAR\n")
            .with("stop_times.txt", """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                BACK,08:00:00,08:00:00,A,1
                BACK,08:20:00,08:20:00,B,2
                BACK,08:10:00,08:10:00,C,3
                ON,08:15:00,08:15:00,C,1
                ON,08:40:00,08:40:00,D,2
                FAR,09:00:00,09:00:00,E,1
                FAR,09:10:00,09:10:00,F,2

                """)
            .write(to: directory)
        let path = directory.file("back.sqlite")
        _ = try Importer(feedPath: feed, databasePath: path, openFeed: openFeedOrZip(at:)).run()
        let transit = try TransitDatabase(path: path)
        let pruned = try JourneyPlanner(transit: transit)
        let whole = try JourneyPlanner(transit: transit)
        whole.prunesWithBounds = false
        let timetable = pruned.timetable
        let bounds = try XCTUnwrap(try timetable.bounds(part: 0))
        func cell(_ id: String) throws -> Int {
            let stop = try XCTUnwrap(try transit.database.fetch(FetchRequest<Stop>().filter(Stop.column(Stop.columns.stopID) == id)).first)
            return Int(bounds.cellOfStop[try XCTUnwrap(timetable.stopNumber(ofKey: stop.key)).index])
        }
        func bound(_ from: String, _ to: String) throws -> UInt16 {
            try timetable.boundRow(part: 0, id: PlannerBounds.towardID(try cell(to)))[try cell(from)]
        }
        XCTAssertEqual(try bound("A", "D"), PlannerBounds.noBound, "A reaches the ride that goes back in time")
        XCTAssertEqual(try bound("B", "D"), PlannerBounds.noBound, "so does B")
        XCTAssertEqual(try bound("C", "D"), 25 * 60, "C does not: the least ride to D")
        XCTAssertEqual(try bound("E", "F"), 10 * 60, "far from it, E keeps its bound")
        XCTAssertEqual(try bound("E", "A"), PlannerBounds.unreachable, "no ride joins E to A")
        func rides(_ from: String, _ to: String) throws -> UInt8 {
            try timetable.boundByteRow(part: 0, id: PlannerBounds.ridesTowardID(try cell(to)))[try cell(from)]
        }
        XCTAssertEqual(try rides("A", "D"), 2, "the fewest rides hold whatever the times do: BACK, then ON")
        XCTAssertEqual(try rides("C", "D"), 1)
        XCTAssertEqual(try rides("D", "D"), 0)
        XCTAssertEqual(try rides("E", "A"), PlannerBounds.unreachableRides, "no ride joins E to A")
        XCTAssertEqual(try timetable.boundByteRow(part: 0, id: PlannerBounds.ridesFromID(try cell("A")))[try cell("D")], 2,
                       "the row from A says the same")

        let zone = transit.feeds[0].timeZone
        let time = zone.instant(ofLocal: try XCTUnwrap(ServiceDate(yyyymmdd: 20260302)), hour: 7, minute: 55, second: 0)
        let (from, to): (JourneyPlace, JourneyPlace) = (.stops(keys: [try stopKey("A", transit)]), .stops(keys: [try stopKey("D", transit)]))
        let found = try pruned.plan(from: from, to: to, at: time, options: JourneyOptions())
        XCTAssertEqual(found, try whole.plan(from: from, to: to, at: time, options: JourneyOptions()))
        XCTAssertEqual(found.map(\.rides), [2], "A → C on BACK, then C → D")
        XCTAssertEqual(found.first?.arrival, time + 45 * 60)
    }

    private func stopKey(_ id: String, _ transit: TransitDatabase) throws -> Int {
        try XCTUnwrap(try transit.database.fetch(FetchRequest<Stop>().filter(Stop.column(Stop.columns.stopID) == id)).first).key
    }

    /// Imports `feed` and asks `questions` seeded random questions (stop to stop, point to stop and
    /// stop to point, by `--at` and `--arrive-by`, walks of 100, 500 and 1,000 m, up to 8 rides)
    /// with pruning and without: the journeys must be equal, the pruned searches must scan no more
    /// patterns in all, and (`expectFewerScans`) fewer.
    private func assertPrunedEqualsWhole(feed: String, questions: Int, expectFewerScans: Bool = true,
                                         file: StaticString = #filePath, line: UInt = #line) throws {
        let path = directory.file("db-\(UUID().uuidString).sqlite")
        _ = try Importer(feedPath: feed, databasePath: path, openFeed: openFeedOrZip(at:)).run()
        let transit = try TransitDatabase(path: path)
        let pruned = try JourneyPlanner(transit: transit)
        let whole = try JourneyPlanner(transit: transit)
        whole.prunesWithBounds = false
        XCTAssertNotNil(try pruned.timetable.bounds(part: 0), "the import stored bounds", file: file, line: line)
        let asked = try SeededJourneyQuestion.make(count: questions, seed: UInt64(questions) &* 104_729, transit: transit, planner: whole,
                                                   walks: [100, 500, 1000], rides: { _ in 8 }, pointOffset: 0.002)
        var (answers, prunedScans, wholeScans) = (0, 0, 0)
        for (index, question) in asked.enumerated() {
            let expected = try question.answers(of: whole), found = try question.answers(of: pruned)
            XCTAssertEqual(found, expected, "question \(index): \(question.description)", file: file, line: line)
            answers += expected.count
            prunedScans += pruned.lastCounters.routesScanned
            wholeScans += whole.lastCounters.routesScanned
        }
        print("\((feed as NSString).lastPathComponent): \(questions) questions, \(answers) journeys, \(prunedScans) pattern scans pruned, \(wholeScans) whole")
        XCTAssertGreaterThan(answers, questions / 4, "many questions have journeys to compare", file: file, line: line)
        XCTAssertLessThanOrEqual(prunedScans, wholeScans, "the pruned searches scan no more patterns", file: file, line: line)
        if expectFewerScans { XCTAssertLessThan(prunedScans, wholeScans, "the pruned searches scan fewer patterns", file: file, line: line) }
    }
}
