import XCTest
import Foundation
import FetchRequest
import GTFS
import TestSupport

/// The journey planner against an independent brute-force planner (`Tests/Reference`, Python,
/// written apart from it from the same rules): on hundreds of seeded random questions over the
/// demo feed and the shared real feeds, `transit plan` (at and arrive-by) and `transit reach`
/// give the same Pareto answers — the same (rides, departure, arrival) for every journey, and
/// the same stops with the same arrivals and rides. The reference's own tests (hand-computed
/// answers, and a check against every possible journey on small random feeds) run too.
final class PlannerAgreementTests: XCTestCase {
    private static let reference = Paths.projectRoot + "/Tests/Reference/reference_planner.py"

    func testTheReferencePlannersOwnTestsPass() throws {
        let run = try CommandRun.run("/usr/bin/env", ["python3", "-m", "unittest", "discover", "-s", Paths.projectRoot + "/Tests/Reference"],
                                     environment: ["TRANSIT_BINARY": Paths.transitBinary,
                                                   "TRANSIT_FEEDS": (Paths.projectRoot as NSString).deletingLastPathComponent + "/shared/feeds"],
                                     timeout: 900)
        XCTAssertEqual(run.status, 0, run.stderr.suffix(3000).description)
        XCTAssertTrue(run.stderr.contains("\nOK"), run.stderr.suffix(2000).description)
    }

    func testPlansAgreeWithTheReferenceOnTheDemoFeed() throws {
        try agree(feed: Paths.demoFeed, name: "lindenau", questions: 80, seed: 1)
    }

    func testPlansAgreeWithTheReferenceOnTheSampleFeedWithFrequencies() throws {
        guard let feed = Paths.sharedFeed("sample_gtfs.zip") else { throw XCTSkip("../shared/feeds/sample_gtfs.zip is absent: skipped") }
        try agree(feed: feed, name: "sample", questions: 60, seed: 2)
    }

    func testPlansAgreeWithTheReferenceOnVilnius() throws {
        guard let feed = Paths.sharedFeed("vilnius.zip") else { throw XCTSkip("../shared/feeds/vilnius.zip is absent: skipped") }
        try agree(feed: feed, name: "vilnius", questions: 60, seed: 3)
    }

    /// Realtime data drawn at random for 2015-09-08 (delays of −60..600 s at the first five stops
    /// of 4,000 trips, a tenth of those stops skipped, one trip in twenty cancelled) changes the
    /// answers of both planners alike.
    func testPlansWithRealtimeAgreeWithTheReferenceOnVilnius() throws {
        guard let feed = Paths.sharedFeed("vilnius.zip") else { throw XCTSkip("../shared/feeds/vilnius.zip is absent: skipped") }
        try agree(feed: feed, name: "vilnius", questions: 60, seed: 5,
                  realtime: RandomRealtime(timestamp: 1_441_670_400, date: ServiceDate(year: 2015, month: 9, day: 8)!, trips: 4000, stopsPerTrip: 5))
    }

    /// A seeded random realtime message (`scripts/realtime-message.py`) for the trips of one day,
    /// whose questions are then all asked on that day.
    private struct RandomRealtime {
        let timestamp: Int
        let date: ServiceDate
        let trips: Int
        let stopsPerTrip: Int
    }

    func testPlansAgreeWithTheReferenceOnCairns() throws {
        guard let feed = Paths.sharedFeed("cairns_gtfs.zip") else { throw XCTSkip("../shared/feeds/cairns_gtfs.zip is absent: skipped") }
        try agree(feed: feed, name: "cairns", questions: 60, seed: 4)
    }

    /// Journeys that leave a city: national feeds of 4 cities grown from Queensland's and Nevada's
    /// feeds (`make-national-feed.py`), whose random pairs of stops are mostly in two cities,
    /// joined by intercity rail. The bounds that prune these searches are the Swift planner's own;
    /// the reference has none.
    func testPlansAgreeWithTheReferenceAcrossTheCitiesOfNationalFeeds() throws {
        let directory = TemporaryDirectory()
        for (source, seed) in [("cairns_gtfs.zip", UInt64(6)), ("sample_gtfs.zip", UInt64(7))] {
            guard let feed = try NationalFeed.make(from: source, cities: 4, in: directory) else { continue }
            try agree(feed: feed, name: "national", questions: 60, seed: seed)
        }
    }

    /// Imports `feed` (and reads `realtime` into it), asks `questions` seeded random questions of
    /// both planners and compares.
    private func agree(feed: String, name: String, questions: Int, seed: UInt64, realtime: RandomRealtime? = nil) throws {
        let directory = TemporaryDirectory()
        let db = directory.file("transit.sqlite")
        let imported = try CommandRun.transit(["import", feed, "--db", db, "--quiet", "--feed", name])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        var extra: [String] = []
        var referenceOptions = ""
        if let realtime {
            let message = directory.file("updates.pb")
            let made = try CommandRun.run("/usr/bin/env", ["python3", Paths.projectRoot + "/scripts/realtime-message.py", db, String(realtime.trips),
                                                           String(realtime.stopsPerTrip), String(realtime.timestamp), message, String(seed),
                                                           "--skipped", "0.1", "--cancelled", "0.05"])
            XCTAssertEqual(made.status, 0, made.stderr)
            let read = try CommandRun.transit(["realtime", message, "--db", db])
            XCTAssertEqual(read.status, 0, read.stderr)
            // Fresh for every question of the day (the reference applies it to every question).
            extra = ["--max-age", "1440"]
            referenceOptions = "--realtime"
        }

        var generator = SeededNumbers(seed: seed)
        let transit = try TransitDatabase(path: db)
        let stops = try transit.database.fetch(FetchRequest<Stop>().filter(Stop.boardingPoints()))
            .filter { $0.latitude != nil && $0.longitude != nil }
        let dates = transit.feeds[0].serviceDates!
        XCTAssertGreaterThan(stops.count, 2)
        var asked: [[String]] = []
        for index in 0..<questions {
            let from = stops[Int(generator.next() % UInt64(stops.count))]
            let to = stops[Int(generator.next() % UInt64(stops.count))]
            let span = max(dates.upperBound.dayNumber - dates.lowerBound.dayNumber, 1)
            let date = realtime?.date ?? dates.lowerBound.adding(days: Int(generator.next() % UInt64(min(span, 60))))
            let minute = 5 * 60 + Int(generator.next() % UInt64(19 * 60))
            let time = "\(date) \(minute / 60 < 10 ? "0" : "")\(minute / 60):\(minute % 60 < 10 ? "0" : "")\(minute % 60)"
            let walk = ["--max-walk", ["300", "500", "800"][index % 3]]
            switch index % 5 {
            case 3:
                asked.append(["plan", from.stopID, to.stopID, "--arrive-by", time] + walk)
            case 4:
                asked.append(["reach", from.stopID, "--at", time, "--within", "40"] + walk)
            case 2:
                // A point near the origin to the destination stop.
                let point = "\(from.latitude! + 0.001),\(from.longitude!)"
                asked.append(["plan", point, to.stopID, "--at", time, "--max-access-walk", ["600", "1000", "1500"][index % 3]] + walk)
            default:
                asked.append(["plan", from.stopID, to.stopID, "--at", time, "--max-rides", String(2 + index % 4)] + walk)
            }
        }
        let lines = asked.map { question in
            String(decoding: try! JSONSerialization.data(withJSONObject: question), as: UTF8.self)
        }.joined(separator: "\n") + "\n"
        let input = directory.file("questions.jsonl")
        try lines.write(toFile: input, atomically: true, encoding: .utf8)
        let reference = try CommandRun.run("/bin/sh", ["-c", "python3 \"$0\" --db \"$1\" $3 batch < \"$2\"", PlannerAgreementTests.reference, db, input,
                                                        referenceOptions], timeout: 1800)
        XCTAssertEqual(reference.status, 0, reference.stderr)
        let expected = reference.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(expected.count, asked.count, reference.stderr)

        var journeysCompared = 0
        var predictedRides = 0
        for (question, expectedLine) in zip(asked, expected) {
            let run = try CommandRun.transit(question + extra + ["--format", "json", "--db", db])
            XCTAssertEqual(run.status, 0, "\(question): \(run.stderr)")
            let ours = try summary(run.stdout)
            let theirs = try summary(expectedLine)
            XCTAssertEqual(ours, theirs, "transit \(question.joined(separator: " "))")
            journeysCompared += ours.count
            predictedRides += run.stdout.components(separatedBy: "\"realtime\": true").count - 1
        }
        XCTAssertGreaterThan(journeysCompared, questions / 2, "most questions have answers to compare")
        if realtime != nil { XCTAssertGreaterThan(predictedRides, 5, "realtime data changes some of the rides compared") }
    }

    /// (rides, departure, arrival) per journey, or (stop_id, arrival, rides) per reached stop.
    private func summary(_ json: String) throws -> [String] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
        if let journeys = object["journeys"] as? [[String: Any]] {
            return journeys.map { "\($0["rides"] ?? "?") \($0["departure"] ?? "?") \($0["arrival"] ?? "?")" }
        }
        let stops = try XCTUnwrap(object["stops"] as? [[String: Any]], json)
        return stops.map { "\($0["stop_id"] ?? "?") \($0["arrival"] ?? "?") \($0["rides"] ?? "?")" }.sorted()
    }
}
