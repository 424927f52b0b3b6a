import FetchRequest
import Foundation
import GTFS
import NIOHTTP1
import TestSupport
import TransitCommands
import XCTest
@testable import TransitServer

/// The responder answers requests in process, on the demo feed imported in the test: the API's
/// bodies are the command line's, its mistakes JSON with their status, the pages the binary's.
final class ResponderTests: XCTestCase {
    private let server = ResponderHarness.demo

    /// What `transit ARGUMENTS` answers on the same database, asked directly.
    private func commandLineAnswer(_ arguments: [String]) throws -> HostedAnswer {
        let transit = try TransitDatabase(path: server.database)
        defer { try? transit.finishQuestion() }
        return HostedQuestion(arguments: arguments).answer(on: transit, explain: false)
    }

    func testNearbyAnswersTheCommandLinesJSONWithTheStopsTheQueryFinds() throws {
        let response = server.answer("/api/nearby?lat=52.5249&lon=13.3692&radius=2500&limit=5")
        XCTAssertEqual(response.status, .ok, response.text)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8")
        let expected = try commandLineAnswer(["nearby", "52.5249", "13.3692", "--radius", "2500", "--limit", "5", "--format", "json"])
        XCTAssertEqual(expected.outcome, .answered, expected.message)
        XCTAssertEqual(response.text, String(decoding: expected.body, as: UTF8.self))
        // The same stops, nearest first, as the GTFS query finds them.
        var query = NearbyStopsQuery(latitude: 52.5249, longitude: 13.3692)
        query.radius = 2500
        query.limit = 5
        let stops = try query.run(on: try TransitDatabase(path: server.database)).map(\.stop.stopID)
        let rows = try XCTUnwrap(try response.json() as? [[String: Any]])
        XCTAssertEqual(rows.compactMap { $0["stop_id"] as? String }, stops)
        XCTAssertFalse(stops.isEmpty)
    }

    func testEachFormatHasItsContentTypeAndTheCommandLinesBody() throws {
        for (format, type) in [("csv", "text/csv; charset=utf-8"), ("geojson", "application/geo+json; charset=utf-8")] {
            let response = server.answer("/api/search?text=haupt&format=\(format)")
            XCTAssertEqual(response.status, .ok, response.text)
            XCTAssertEqual(response.header("Content-Type"), type)
            let expected = try commandLineAnswer(["search", "haupt", "--format", format])
            XCTAssertEqual(response.text, String(decoding: expected.body, as: UTF8.self), format)
            XCTAssertEqual(response.header("Content-Length"), String(expected.body.count))
        }
    }

    func testAnUnknownEndpointIsA404ListingTheEndpoints() throws {
        let response = server.answer("/api/stations?near=1,2")
        XCTAssertEqual(response.status, .notFound)
        XCTAssertEqual(response.header("Cache-Control"), "no-store")
        XCTAssertEqual(response.text, "{\"error\": \"no such endpoint: /api/stations; the endpoints are /api/alerts, /api/departures, /api/feeds, "
                       + "/api/list, /api/nearby, /api/plan, /api/reach, /api/route, /api/routes, /api/search, /api/trip, /api/vehicles\", \"parameter\": null}\n")
        let withID = server.answer("/api/feeds/lindenau")
        XCTAssertEqual(withID.status, .notFound)
        XCTAssertEqual(withID.text, "{\"error\": \"no such path: /api/feeds/lindenau (/api/feeds takes no {id})\", \"parameter\": null}\n")
    }

    func testAnUnknownTripIsA404AndABadValueA400InTheAPIsWords() throws {
        let trip = server.answer("/api/trip/NO_SUCH_TRIP")
        XCTAssertEqual(trip.status, .notFound, trip.text)
        XCTAssertEqual(try XCTUnwrap(try trip.json() as? [String: Any])["parameter"] as? String, "id")
        let radius = server.answer("/api/nearby?lat=52.5&lon=13.4&radius=-3")
        XCTAssertEqual(radius.status, .badRequest, radius.text)
        let mistake = try XCTUnwrap(try radius.json() as? [String: Any])
        XCTAssertEqual(mistake["parameter"] as? String, "radius")
        XCTAssertFalse((mistake["error"] as? String ?? "--radius").contains("--radius"), radius.text)
        let explained = server.answer("/api/feeds?explain=1&format=csv")
        XCTAssertEqual(explained.status, .badRequest)
        XCTAssertEqual(explained.text, "{\"error\": \"explain=1 answers JSON: leave out format=csv\", \"parameter\": \"explain\"}\n")
    }

    func testAQuestionTheDatabaseIsBusyForIsAskedAgainThenA503ThatSaysSo() throws {
        let folder = TemporaryDirectory()
        let copy = folder.file("demo.sqlite")
        try FileManager.default.copyItem(atPath: server.database, toPath: copy)
        let harness = ResponderHarness(database: copy)
        let expected = harness.answer("/api/routes")
        XCTAssertEqual(expected.status, .ok, expected.text)
        // Another connection holds the file's exclusive lock (as a writer outside transit could):
        // each attempt waits for SQLite's busy timeout, and after the last the client is told why.
        let writer = try Database(path: copy, mode: .readWrite)
        try writer.execute("BEGIN EXCLUSIVE")
        let busy = harness.answer("/api/routes")
        XCTAssertEqual(busy.status, .serviceUnavailable, busy.text)
        XCTAssertEqual(busy.header("Retry-After"), "1")
        let message = try XCTUnwrap(try busy.json() as? [String: Any])["error"] as? String ?? ""
        XCTAssertTrue(message.hasPrefix("the database was busy \(PooledConnection.attempts) times in a row ("), message)
        XCTAssertTrue(message.hasSuffix("); try again shortly"), message)
        try writer.execute("ROLLBACK")
        let again = harness.answer("/api/routes")
        XCTAssertEqual(again.status, .ok, again.text)
        XCTAssertEqual(again.text, expected.text)
    }

    func testAReadAHotStandbyCancelledForItsReplayIsAnsweredAsBusy() {
        // PostgreSQL's recovery conflicts: a read cancelled (40001) or found deadlocked (40P01)
        // with the replay of the primary's changes. Asked again, it is answered.
        for state in ["40001", "40P01"] {
            let error = DatabaseError.matching(sqlState: state, message: "canceling statement due to conflict with recovery", sql: nil)
            XCTAssertEqual(error?.isBusy, true, state)
            XCTAssertEqual(error.map { HostedAnswer(unavailable: $0).outcome }, .busy, state)
        }
        XCTAssertNil(DatabaseError.matching(sqlState: "23505", message: "duplicate key", sql: nil))
    }

    func testExplainWrapsTheSameAnswerWithItsStatements() throws {
        let plain = try XCTUnwrap(try server.answer("/api/feeds").json() as? [Any])
        let explained = try XCTUnwrap(try server.answer("/api/feeds?explain=yes").json() as? [String: Any])
        XCTAssertEqual((explained["result"] as? [Any])?.count, plain.count)
        XCTAssertFalse((explained["explain"] as? [Any] ?? []).isEmpty, "\(explained)")
    }

    func testOnlyGETAndHEADAreAnsweredAndHEADHasNoBodyButItsLength() throws {
        let post = server.answer("/api/feeds", method: .POST)
        XCTAssertEqual(post.status, .methodNotAllowed)
        XCTAssertEqual(post.header("Allow"), "GET, HEAD")
        let get = server.answer("/api/feeds")
        let head = server.answer("/api/feeds", method: .HEAD)
        XCTAssertEqual(head.status, .ok)
        XCTAssertEqual(head.body.readableBytes, 0)
        XCTAssertEqual(head.header("Content-Length"), String(get.body.readableBytes))
        XCTAssertEqual(head.header("Server"), "transit")
        XCTAssertNotNil(head.header("Date"))
    }

    func testATargetLongerThan4096BytesIsA414() {
        let response = server.answer("/api/search?text=" + String(repeating: "a", count: 4096))
        XCTAssertEqual(response.status, .uriTooLong)
        XCTAssertEqual(response.text, "{\"error\": \"the request is longer than 4096 bytes\", \"parameter\": null}\n")
    }

    func testCORSHeadersAndPreflightOnlyWithAnOrigin() {
        XCTAssertNil(server.answer("/api/feeds").header("Access-Control-Allow-Origin"))
        XCTAssertEqual(server.answer("/api/feeds", method: .OPTIONS).status, .methodNotAllowed)
        let settings = ServerSettings(corsOrigin: "https://example.org", quiet: true)
        let answer = server.answer("/api/feeds", settings: settings)
        XCTAssertEqual(answer.header("Access-Control-Allow-Origin"), "https://example.org")
        XCTAssertEqual(answer.header("Vary"), "Accept-Encoding, Origin")
        let preflight = server.answer("/api/feeds", method: .OPTIONS, settings: settings)
        XCTAssertEqual(preflight.status, .noContent)
        XCTAssertEqual(preflight.header("Access-Control-Allow-Methods"), "GET, HEAD")
    }

    func testPagesAndTheirFilesAreTheEmbeddedBytes() throws {
        for (target, file) in [("/", "index.html"), ("/board/HBF", "board.html"), ("/trip/T1", "trip.html"),
                               ("/favicon.ico", "favicon.svg"), ("/static/leaflet/leaflet.css", "leaflet/leaflet.css")] {
            let response = server.answer(target)
            XCTAssertEqual(response.status, .ok, target)
            XCTAssertEqual(Array(response.body.readableBytesView), EmbeddedFiles.file(named: file), target)
            XCTAssertEqual(response.header("Content-Type"), EmbeddedFiles.contentType(of: file), target)
        }
        let missing = server.answer("/static/nothing.js")
        XCTAssertEqual(missing.status, .notFound)
        XCTAssertEqual(missing.text, "{\"error\": \"no such file: /static/nothing.js\", \"parameter\": null}\n")
        XCTAssertEqual(server.answer("/board").status, .notFound)
    }
}
