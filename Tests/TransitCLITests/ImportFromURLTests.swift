import XCTest
import Foundation
import TestSupport

/// `transit import URL` against an HTTP server on 127.0.0.1 that the test starts: each outcome a
/// download can have, the database left as it was on every failure, and no file left behind.
final class ImportFromURLTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var server: LocalHTTPServer!
    private var base: String { server.base }
    private var database: String { directory.file("db.sqlite") }

    /// The server: the demo feed as a zip with validators, and one path per way a download goes wrong.
    static let serverScript = #"""
    feed, log_file = args
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(os.listdir(feed)):
            if name.endswith(".txt"):
                archive.write(os.path.join(feed, name), name)
    body = buffer.getvalue()
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *args): pass
        def send(self, status, data=b"", headers=()):
            with open(log_file, "a") as log: log.write("%s %d\n" % (self.path, status))
            self.send_response(status)
            for name, value in headers: self.send_header(name, value)
            if not any(name == "Content-Length" for name, _ in headers): self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        def do_GET(self):
            if self.path == "/feed.zip":
                if self.headers.get("If-None-Match") == '"v1"':
                    return self.send(304, headers=[("ETag", '"v1"')])
                return self.send(200, body, [("ETag", '"v1"'), ("Last-Modified", "Mon, 02 Mar 2026 08:00:00 GMT")])
            if self.path == "/moved": return self.send(302, headers=[("Location", "/feed.zip")])
            if self.path == "/secret.zip":
                if self.headers.get("X-Api-Key") != "k": return self.send(401, b"no key")
                return self.send(200, body)
            if self.path == "/truncated":
                self.send(200, body[:1000], [("Content-Length", str(len(body)))])
                self.close_connection = True
                return
            if self.path == "/notzip": return self.send(200, b"<html>not a feed</html>")
            if self.path == "/slow":
                time.sleep(4)
                return self.send(200, body)
            return self.send(404, b"not found")
    """#

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        server = try LocalHTTPServer(handler: ImportFromURLTests.serverScript, arguments: [Paths.demoFeed, directory.file("requests.log")],
                                     folder: directory.path)
    }

    override func tearDown() {
        server = nil
        directory = nil
    }

    private func transit(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandRun {
        try CommandRun.transit(arguments + ["--db", database], environment: environment)
    }

    private var requests: [String] {
        ((try? String(contentsOfFile: directory.file("requests.log"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The files beside the database (the server's own files left out).
    private var besideDatabase: [String] {
        directory.contents().filter { !["server.py", "port", "requests.log"].contains($0) }
    }

    func testAFeedIsImportedFromAURLAndNotAgainWhileUnchanged() throws {
        let first = try transit(["import", base + "/feed.zip"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.hasPrefix("Imported feed feed into "), first.stdout)
        let feeds = try transit(["feeds", "--format", "json"])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(feeds.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.first?["source"] as? String, base + "/feed.zip")
        XCTAssertEqual(besideDatabase, ["db.sqlite"], "the download is removed")
        // Again, by name only: the recorded URL, with its ETag: 304, nothing imported.
        let again = try transit(["import", "--feed", "feed"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "feed: unchanged since Mon, 02 Mar 2026 08:00:00 GMT; nothing downloaded or imported\n")
        XCTAssertEqual(requests, ["/feed.zip 200", "/feed.zip 304"])
        XCTAssertEqual(try transit(["nearby", "52.5249", "13.3692", "--format", "csv"]).stdout.split(separator: "\r\n")[1].prefix(9), "feed,HBF,")
        // A name the database does not have, with no source: nothing to import again.
        let unknown = try transit(["import", "--feed", "other"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("has no feed named other to import again"), unknown.stderr)
        let nothing = try transit(["import"])
        XCTAssertEqual(nothing.status, 64, nothing.stderr)
    }

    func testRedirectsAreFollowedAndKeysSent() throws {
        let moved = try transit(["import", base + "/moved", "--feed", "moved", "--quiet"])
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertEqual(requests, ["/moved 302", "/feed.zip 200"])
        let refused = try transit(["import", base + "/secret.zip"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "Error: \(base)/secret.zip: HTTP 401 Unauthorized (does the feed need a key? give it with --header \"NAME: VALUE\")\n")
        let keyed = try transit(["import", base + "/secret.zip", "--header", "X-Api-Key: k", "--quiet"])
        XCTAssertEqual(keyed.status, 0, keyed.stderr)
        let feeds = try transit(["feeds", "--format", "csv"]).stdout
        XCTAssertTrue(feeds.contains("\r\nmoved,") && feeds.contains("\r\nsecret,"), feeds)
        XCTAssertEqual(try transit(["import", base + "/x.zip", "--header", "no colon"]).status, 64)
    }

    func testEveryFailedDownloadLeavesTheDatabaseAsItWasAndNoFile() throws {
        XCTAssertEqual(try transit(["import", Paths.demoFeed, "--quiet"]).status, 0)
        let before = databaseFingerprint(database)
        // A port nobody listens on: bind one, close it.
        let closed = try CommandRun.run("/usr/bin/env", ["python3", "-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
        let refusedURL = "http://127.0.0.1:\(closed.stdout.trimmingCharacters(in: .whitespacesAndNewlines))/feed.zip"
        let cases: [(String, [String: String], String)] = [
            (base + "/missing.zip", [:], "Error: \(base)/missing.zip: HTTP 404 Not Found\n"),
            (base + "/truncated", [:], "Error: \(base)/truncated: the body ended after 1000 of "),
            (refusedURL, [:], "Error: \(refusedURL): connection refused\n"),
            (base + "/slow", ["TRANSIT_HTTP_TIMEOUT": "1"], "Error: \(base)/slow: timed out after 1 s without data\n"),
            (base + "/notzip", [:], "Error: \(base)/notzip"),
        ]
        for (url, environment, expected) in cases {
            let run = try transit(["import", url, "--feed", "lindenau"], environment: environment)
            XCTAssertEqual(run.status, 1, "\(url): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix(expected), "\(url): \(run.stderr)")
            XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr)
            XCTAssertEqual(databaseFingerprint(database), before, url)
            XCTAssertEqual(besideDatabase, ["db.sqlite"], "\(url): nothing is left beside the database")
        }
    }

    func testADownloadLeftByAKilledImportIsRemovedByTheNextOne() throws {
        // A pid that cannot be running: the largest pid Linux can give is 4,194,304.
        try directory.write(".db.sqlite.download-4194999.tmp", "half a zip")
        XCTAssertEqual(try transit(["import", base + "/feed.zip", "--quiet"]).status, 0)
        XCTAssertEqual(besideDatabase, ["db.sqlite"])
    }
}
