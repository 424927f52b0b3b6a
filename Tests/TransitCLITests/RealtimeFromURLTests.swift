import XCTest
import Foundation
import GTFSRealtime
import SwiftProtobuf
import TestSupport

/// `transit realtime URL` against an HTTP server on 127.0.0.1 that the test starts: a message
/// behind a key header, with a file beside it, and each way a download fails keeping the data.
final class RealtimeFromURLTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var server: LocalHTTPServer!
    private var base: String { server.base }

    /// Serves the files of its folder; /key/NAME only with `X-Api-Key: k`; /truncated promises more
    /// than it sends; anything else is 404.
    private static let serverScript = #"""
    folder = args[0]
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *args): pass
        def send(self, status, data=b"", length=None):
            self.send_response(status)
            self.send_header("Content-Length", str(len(data) if length is None else length))
            self.end_headers()
            self.wfile.write(data)
        def do_GET(self):
            name = self.path.rsplit("/", 1)[-1]
            path = os.path.join(folder, name)
            if self.path == "/truncated":
                self.send(200, open(os.path.join(folder, "updates.pb"), "rb").read()[:10], length=5000)
                self.close_connection = True
                return
            if self.path.startswith("/key/") and self.headers.get("X-Api-Key") != "k": return self.send(401, b"no key")
            if not os.path.isfile(path): return self.send(404, b"not found")
            self.send(200, open(path, "rb").read())
    """#

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        // Trip T1 of the demo feed 4 minutes late at GOR on Monday 2026-03-02, read at 07:55.
        let message = TransitRealtime_FeedMessage.with { message in
            message.header = .with { $0.gtfsRealtimeVersion = "2.0"; $0.timestamp = 1_772_434_500 }
            message.entity = [.with { entity in
                entity.id = "tu-T1"
                entity.tripUpdate = .with { update in
                    update.trip = .with { $0.tripID = "T1"; $0.startDate = "20260302" }
                    update.stopTimeUpdate = [.with { $0.stopSequence = 2; $0.departure = .with { $0.delay = 240 } }]
                }
            }]
        }
        try directory.write("served/updates.pb", bytes: try message.serializedBytes())
        server = try LocalHTTPServer(handler: RealtimeFromURLTests.serverScript, arguments: [directory.file("served")], folder: directory.path)
        try FileManager.default.copyItem(atPath: try DemoDatabase.path(), toPath: directory.file("db.sqlite"))
    }

    override func tearDown() {
        server = nil
        directory = nil
    }

    private func transit(_ arguments: [String]) throws -> CommandRun {
        try CommandRun.transit(arguments + ["--db", directory.file("db.sqlite")])
    }

    /// T1's departure from GOR as `departures` gives it: "08:14 240" with the realtime data stored.
    private func gor() throws -> String {
        let run = try transit(["departures", "--stop", "GOR", "--at", "2026-03-02 08:05", "--within", "15", "--format", "csv"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let fields = run.stdout.split(separator: "\r\n").dropFirst().first?.split(separator: ",", omittingEmptySubsequences: false) ?? []
        return fields.count > 12 ? "\(fields[10].dropFirst(11).prefix(5)) \(fields[12])" : run.stdout
    }

    func testAMessageIsReadFromAURLWithTheKeyHeader() throws {
        let read = try transit(["realtime", base + "/key/updates.pb", "--header", "X-Api-Key: k", "--format", "json"])
        XCTAssertEqual(read.status, 0, read.stderr)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(summary["matched"] as? Int, 1)
        XCTAssertEqual((summary["sources"] as? [[String: Any]])?.first?["source"] as? String, base + "/key/updates.pb")
        XCTAssertEqual(try gor(), "08:14 240")
        // A URL and a file read together, as separate trip update and alert feeds often are.
        let both = try transit(["realtime", base + "/updates.pb", directory.file("served/updates.pb")])
        XCTAssertEqual(both.status, 0, both.stderr)
        XCTAssertEqual(directory.contents().sorted(), ["db.sqlite", "port", "served", "server.py"], "nothing is left beside the database")
    }

    func testFailedDownloadsAreOneLineAndKeepTheStoredData() throws {
        XCTAssertEqual(try transit(["realtime", base + "/updates.pb"]).status, 0)
        for (path, arguments, expected) in [
            ("/key/updates.pb", [String](), "HTTP 401 Unauthorized (does the feed need a key? give it with --header \"NAME: VALUE\")"),
            ("/missing.pb", [], "HTTP 404 Not Found"),
            ("/truncated", [], "the body ended after 10 of 5000 bytes (Content-Length); the connection was cut"),
        ] {
            let run = try transit(["realtime", base + path] + arguments)
            XCTAssertEqual(run.status, 1, path)
            XCTAssertEqual(run.stderr, "Error: \(base + path): \(expected)\n")
            XCTAssertEqual(try gor(), "08:14 240", "\(path): the stored realtime data stays")
        }
        let refused = try transit(["realtime", "http://127.0.0.1:1/updates.pb"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "Error: http://127.0.0.1:1/updates.pb: connection refused\n")
        let noHost = try transit(["realtime", "https:///updates.pb"])
        XCTAssertEqual(noHost.status, 64)
        XCTAssertTrue(noHost.stderr.hasPrefix("Error: https:///updates.pb is not a URL transit can download (it names no host)"), noHost.stderr)
        let badHeader = try transit(["realtime", base + "/updates.pb", "--header", "no colon"])
        XCTAssertEqual(badHeader.status, 64)
        XCTAssertTrue(badHeader.stderr.contains("--header takes \"NAME: VALUE\", got 'no colon'"), badHeader.stderr)
    }
}
