import Foundation
import XCTest
@testable import GTFS
import TestSupport
@testable import TransitCommands

/// A host (`transit-serve`) asks `transit` its questions as command-line words; only the read-only
/// questions the server has an endpoint for are answered, whatever words follow the command.
final class HostedQuestionTests: XCTestCase {
    private func answer(_ arguments: [String], on transit: TransitDatabase) throws -> HostedAnswer {
        // As a host does: each question in its read transaction (opening began the first).
        let answer = HostedQuestion(arguments: arguments).answer(on: transit, explain: false)
        try transit.finishQuestion()
        try transit.startNextQuestion()
        return answer
    }

    func testAHostIsAnsweredOnlyTheReadOnlyQuestionsTheServerHasEndpointsFor() throws {
        // A copy: were `feeds remove` run, it would change the file.
        let directory = TemporaryDirectory()
        let copy = directory.file("demo.sqlite")
        try FileManager.default.copyItem(atPath: try DemoDatabase.path(), toPath: copy)
        let transit = try TransitDatabase(path: copy)
        for refused in [["stats"], ["import", "data/lindenau"], ["realtime", "message.pb"], ["serve"],
                        ["feeds", "remove", "lindenau"], ["feeds", "upgrade"], []] {
            let answer = try answer(refused, on: transit)
            XCTAssertEqual(answer.outcome, .badRequest, refused.joined(separator: " "))
            XCTAssertTrue(answer.message.contains("not a question transit answers"), answer.message)
        }
        // The feed is still listed: `feeds remove` was refused, not run.
        let feeds = try answer(["feeds", "--format", "json"], on: transit)
        XCTAssertEqual(feeds.outcome, .answered, feeds.message)
        XCTAssertTrue(String(decoding: feeds.body, as: UTF8.self).contains("\"lindenau\""))
        let nearby = try answer(["nearby", "52.5249", "13.3692", "--radius", "2500", "--format", "json"], on: transit)
        XCTAssertEqual(nearby.outcome, .answered, nearby.message)
        XCTAssertTrue(String(decoding: nearby.body, as: UTF8.self).contains("\"stop_id\""))
    }

    /// A host keeps its connection while nothing was committed since its last question, and with it
    /// the realtime facts it read; a commit by another connection (here realtime facts stored by
    /// the sqlite3 shell) is seen, and the facts are read anew.
    func testTheNextQuestionSaysWhetherAnotherConnectionCommittedAndRereadsTheRealtimeFactsThen() throws {
        let directory = TemporaryDirectory()
        let copy = directory.file("demo.sqlite")
        try FileManager.default.copyItem(atPath: try DemoDatabase.path(), toPath: copy)
        let transit = try TransitDatabase(path: copy)
        let feed = try XCTUnwrap(transit.feeds.first).key
        try transit.finishQuestion()
        XCTAssertFalse(try transit.startNextQuestion(), "the first question has nothing to compare with")
        XCTAssertNil(try transit.realtimeFeeds()[feed])
        try transit.finishQuestion()
        XCTAssertTrue(try transit.startNextQuestion(), "nothing was committed since")
        XCTAssertNil(try transit.realtimeFeeds()[feed])
        try transit.finishQuestion()

        // What `transit realtime` stores (its own table definition), written by another connection.
        let store = try CommandRun.run("/usr/bin/env", ["sqlite3", copy, RealtimeSchema.feeds.sqlIfNotExists + """
            ; INSERT INTO realtime_feeds (feed, timestamp, latest_delay) VALUES (\(feed), 1772438400, 120)
            """])
        XCTAssertEqual(store.status, 0, store.stderr)
        XCTAssertFalse(try transit.startNextQuestion(), "another connection committed")
        XCTAssertEqual(try transit.realtimeFeeds()[feed]?.timestamp, 1_772_438_400, "the facts are read anew")
        try transit.finishQuestion()
        XCTAssertTrue(try transit.startNextQuestion())
        XCTAssertEqual(try transit.realtimeFeeds()[feed]?.window.latestDelay, 120)
        try transit.finishQuestion()
    }
}
