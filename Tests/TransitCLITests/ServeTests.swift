import Foundation
import GTFSRealtime
import TestSupport
import XCTest

/// `transit serve`: every endpoint answers what the command line answers, mistakes are JSON with
/// their status, explain=1 carries the statements, ETags revalidate, the time budget holds, an
/// import underneath never fails a request, SIGTERM ends the server cleanly, and the pages load
/// in a real browser.
final class ServeTests: XCTestCase {
    /// One server on the demo database for the tests that only read.
    nonisolated(unsafe) private static var demoServer: RunningServer?
    nonisolated(unsafe) private static var demoPath = ""

    private func demo() throws -> RunningServer {
        if let server = ServeTests.demoServer { return server }
        ServeTests.demoPath = try DemoDatabase.path()
        let server = try RunningServer(database: ServeTests.demoPath, arguments: ["--quiet"])
        ServeTests.demoServer = server
        return server
    }

    /// A server started with `arguments` on the Vilnius feed of ../shared; the test is skipped,
    /// saying `why` it needs the feed, when ../shared is absent.
    private func vilniusServer(_ arguments: [String], needed why: String) throws -> RunningServer {
        guard let feed = Paths.sharedFeed("vilnius.zip") else {
            throw XCTSkip("skipped: ../shared/feeds/vilnius.zip is absent (\(why))")
        }
        return try RunningServer(database: try DemoDatabase.path(feed: feed), arguments: arguments)
    }

    /// A question of far more than 3 s on Vilnius (every stop time, its trip's stop times,
    /// theirs again): it holds a connection until the time budget cuts it (503).
    private static let heavyQuestion = "/api/list/stop_times?where=SUBQUERY(trip.stop_times,%20$s,%20$s.stop.stop_name%20CONTAINS%20'zz'%20OR%20$s.trip.stop_times.@count%20%3E%20100000).@count%20%3E%200"

    override class func tearDown() {
        _ = demoServer?.stop()
        demoServer = nil
        super.tearDown()
    }

    /// The API's body for `target` and the command line's `--format json` output for `arguments`,
    /// parsed, must be equal.
    private func assertSameAnswer(_ server: RunningServer, _ target: String, _ arguments: [String], database: String,
                                  file: StaticString = #filePath, line: UInt = #line) throws {
        let answer = try server.request(target)
        XCTAssertEqual(answer.status, 200, "\(target): \(answer.text)", file: file, line: line)
        let run = try CommandRun.transit(arguments + ["--db", database])
        XCTAssertEqual(run.status, 0, "transit \(arguments): \(run.stderr)", file: file, line: line)
        let api = try answer.json() as? NSObject
        let cli = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8), options: [.fragmentsAllowed]) as? NSObject
        XCTAssertNotNil(api, file: file, line: line)
        XCTAssertEqual(api, cli, "\(target) differs from transit \(arguments.joined(separator: " "))", file: file, line: line)
    }

    func testEveryEndpointAnswersWhatTheCommandLineAnswers() throws {
        let server = try demo()
        let db = ServeTests.demoPath
        let at = "2026-03-02%2007:55"
        let cases: [(String, [String])] = [
            ("/api/nearby?lat=52.5249&lon=13.3692&radius=2500&limit=5", ["nearby", "52.5249", "13.3692", "--radius", "2500", "--limit", "5", "--format", "json"]),
            ("/api/nearby?lat=52.5249&lon=13.3692&radius=2500&platforms=1&format=geojson", ["nearby", "52.5249", "13.3692", "--radius", "2500", "--platforms", "--format", "geojson"]),
            ("/api/departures?stop=HBF&at=\(at)&within=60", ["departures", "--stop", "HBF", "--at", "2026-03-02 07:55", "--within", "60", "--format", "json"]),
            ("/api/departures?near=52.5249,13.3692&radius=800&at=2026-03-02+07:55&limit=3", ["departures", "--near", "52.5249,13.3692", "--radius", "800", "--at", "2026-03-02 07:55", "--limit", "3", "--format", "json"]),
            ("/api/search?text=u+gorli", ["search", "u gorli", "--format", "json"]),
            ("/api/search?text=%C5%82%C3%B3d%C5%BA&limit=3", ["search", "łódź", "--limit", "3", "--format", "json"]),
            ("/api/trip/T1?date=2026-03-02", ["trip", "T1", "--date", "2026-03-02", "--format", "json"]),
            ("/api/trip/T1?date=2026-03-02&format=geojson", ["trip", "T1", "--date", "2026-03-02", "--format", "geojson"]),
            ("/api/routes?stop=HBF", ["routes", "--stop", "HBF", "--format", "json"]),
            ("/api/routes?near=52.5249,13.3692&radius=3000&type=bus", ["routes", "--near", "52.5249,13.3692", "--radius", "3000", "--type", "bus", "--format", "json"]),
            ("/api/route/R1", ["route", "R1", "--format", "json"]),
            ("/api/feeds", ["feeds", "--format", "json"]),
            ("/api/alerts?stop=HBF&at=\(at)", ["alerts", "--stop", "HBF", "--at", "2026-03-02 07:55", "--format", "json"]),
            ("/api/vehicles", ["vehicles", "--format", "json"]),
            ("/api/list/stops?where=location_type%20==%201&sort=stop_id", ["list", "stops", "--predicate", "location_type == 1", "--sort", "stop_id", "--limit", "100", "--format", "json"]),
            ("/api/list/trips?where=route.route_short_name%20==%20%25@&arg=1&limit=2", ["list", "trips", "--predicate", "route.route_short_name == %@", "--arg", "1", "--limit", "2", "--format", "json"]),
            ("/api/plan?from=HBF&to=STR&at=\(at)", ["plan", "HBF", "STR", "--at", "2026-03-02 07:55", "--format", "json"]),
            ("/api/plan?from=HBF&to=STR&arrive_by=2026-03-02+10:00&max_rides=1&format=geojson", ["plan", "HBF", "STR", "--arrive-by", "2026-03-02 10:00", "--max-rides", "1", "--format", "geojson"]),
            ("/api/plan?from=52.5249,13.3692&to=STR&at=\(at)&max_walk=800&walk_speed=1.1", ["plan", "52.5249,13.3692", "STR", "--at", "2026-03-02 07:55", "--max-walk", "800", "--walk-speed", "1.1", "--format", "json"]),
            ("/api/reach?from=HBF&at=\(at)&within=60", ["reach", "HBF", "--at", "2026-03-02 07:55", "--within", "60", "--format", "json"]),
        ]
        for (target, arguments) in cases {
            try assertSameAnswer(server, target, arguments, database: db)
        }
    }

    func testARealFeedAnswersAsTheCommandLineDoes() throws {
        guard let feed = Paths.sharedFeed("vilnius.zip") else {
            throw XCTSkip("skipped: ../shared/feeds/vilnius.zip is absent (the real-feed comparison needs it)")
        }
        let db = try DemoDatabase.path(feed: feed)
        let server = try RunningServer(database: db, arguments: ["--quiet"])
        defer { _ = server.stop() }
        let nearby = try XCTUnwrap(try server.request("/api/nearby?lat=54.687&lon=25.28&radius=400").json() as? [[String: Any]])
        let stop = try XCTUnwrap(nearby.first?["stop_id"] as? String)
        let departures = try XCTUnwrap(try server.request("/api/departures?stop=\(stop)&at=2015-09-15+08:00&within=30").json() as? [[String: Any]])
        let trip = try XCTUnwrap(departures.first?["trip_id"] as? String, "no departure from \(stop)")
        try assertSameAnswer(server, "/api/nearby?lat=54.687&lon=25.28&radius=400", ["nearby", "54.687", "25.28", "--radius", "400", "--format", "json"], database: db)
        try assertSameAnswer(server, "/api/departures?stop=\(stop)&at=2015-09-15+08:00&within=30", ["departures", "--stop", stop, "--at", "2015-09-15 08:00", "--within", "30", "--format", "json"], database: db)
        try assertSameAnswer(server, "/api/search?text=gedimino", ["search", "gedimino", "--format", "json"], database: db)
        try assertSameAnswer(server, "/api/trip/\(trip)?date=2015-09-15&format=geojson", ["trip", trip, "--date", "2015-09-15", "--format", "geojson"], database: db)
        try assertSameAnswer(server, "/api/plan?from=54.687,25.28&to=54.71,25.25&at=2015-09-15+08:00", ["plan", "54.687,25.28", "54.71,25.25", "--at", "2015-09-15 08:00", "--format", "json"], database: db)
    }

    func testMistakesAreJSONWithTheirStatusAndTheCommandLinesMessage() throws {
        let server = try demo()
        // The message is the command line's, word for word.
        let cli = try CommandRun.transit(["nearby", "100", "13", "--db", ServeTests.demoPath])
        let bad = try server.request("/api/nearby?lat=100&lon=13")
        XCTAssertEqual(bad.status, 400)
        let error = try XCTUnwrap(bad.json() as? [String: Any])
        XCTAssertEqual(error["parameter"] as? String, "lat")
        let message = try XCTUnwrap(error["error"] as? String)
        XCTAssertTrue(cli.stderr.hasPrefix("Error: " + message), "\(cli.stderr) vs \(message)")

        let expectations: [(String, String, Int, String?)] = [
            ("GET", "/api/nearby?lon=13", 400, "lat"),
            ("GET", "/api/nearby?lat=52&lon=13&radius=9000", 400, "radius"),
            ("GET", "/api/nearby?lat=52&lon=13&limit=5000", 400, "limit"),
            ("GET", "/api/nearby?lat=52&lon=13&colour=red", 400, "colour"),
            ("GET", "/api/departures?stop=HBF&at=tomorrow", 400, "at"),
            ("GET", "/api/plan?from=HBF&to=STR", 400, "at"),
            ("GET", "/api/list/stops?where=stop_name%20%3D%3D", 400, "where"),
            ("GET", "/api/departures?stop=NOPE", 404, "stop"),
            ("GET", "/api/trip/NOPE", 404, "id"),
            ("GET", "/api/route/NOPE", 404, "id"),
            ("GET", "/api/plan?from=NOPE&to=STR&at=2026-03-02+08:00", 404, "from"),
            ("GET", "/api/list/nope", 404, "entity"),
            ("GET", "/api/nope", 404, nil),
            ("GET", "/nope", 404, nil),
            ("POST", "/api/feeds", 405, nil),
            ("DELETE", "/api/trip/T1", 405, nil),
            ("GET", "/api/search?text=" + String(repeating: "a", count: 5000), 414, nil),
            ("GET", "/api/search?text=%C3%28", 400, nil),
        ]
        for (method, target, status, parameter) in expectations {
            let answer = try server.request(target, method: method)
            XCTAssertEqual(answer.status, status, "\(method) \(target.prefix(80)): \(answer.text)")
            let body = try XCTUnwrap(answer.json() as? [String: Any], "\(target.prefix(80)): \(answer.text)")
            XCTAssertFalse((body["error"] as? String ?? "").isEmpty, "\(target.prefix(80))")
            XCTAssertEqual(body["parameter"] as? String, parameter, "\(method) \(target.prefix(80)): \(answer.text)")
            XCTAssertTrue(answer.header("Content-Type")?.hasPrefix("application/json") == true)
            if status == 405 { XCTAssertEqual(answer.header("Allow"), "GET, HEAD") }
            // In the API's words: its parameters, not the command line's flags or commands.
            let said = body["error"] as? String ?? ""
            XCTAssertFalse(said.contains("--at") || said.contains("--stop") || said.contains("`transit"), "\(target.prefix(80)): \(said)")
        }
        let unknown = try XCTUnwrap(try server.request("/api/departures?stop=NOPE").json() as? [String: Any])
        XCTAssertTrue((unknown["error"] as? String ?? "").contains("/api/search?text="), "\(unknown)")
    }

    func testExplainCarriesEveryStatementWithItsPlanBesideTheSameAnswer() throws {
        let server = try demo()
        let plain = try server.request("/api/departures?stop=HBF&at=2026-03-02+07:55")
        let explained = try server.request("/api/departures?stop=HBF&at=2026-03-02+07:55&explain=1")
        XCTAssertEqual(explained.status, 200)
        let body = try XCTUnwrap(explained.json() as? [String: Any])
        XCTAssertEqual(body["result"] as? NSObject, try plain.json() as? NSObject)
        let statements = try XCTUnwrap(body["explain"] as? [[String: Any]])
        XCTAssertFalse(statements.isEmpty)
        for statement in statements {
            // A request planned once says so in a comment first (`Query.plannedOnce`).
            let sql = (statement["sql"] as? String ?? "").replacingOccurrences(of: "/* planned once */ ", with: "")
            XCTAssertTrue(sql.hasPrefix("SELECT") || sql.hasPrefix("WITH"), "\(statement)")
            XCTAssertNotNil(statement["arguments"] as? [Any])
            XCTAssertNotNil(statement["rows"] as? Int)
            XCTAssertNotNil(statement["ms"] as? Double)
        }
        let details = statements.flatMap { ($0["plan"] as? [[String: Any]] ?? []).compactMap { $0["detail"] as? String } }
        XCTAssertTrue(details.contains { $0.contains("USING") && $0.contains("INDEX") }, "\(details)")
        // The bound values are there, not pasted into the SQL.
        XCTAssertTrue(statements.contains { ($0["arguments"] as? [Any] ?? []).contains { ($0 as? String) == "HBF" } }, "\(statements)")
        XCTAssertFalse(statements.contains { ($0["sql"] as? String ?? "").contains("HBF") }, "a value pasted into SQL")
        XCTAssertEqual(try server.request("/api/feeds?explain=1&format=csv").status, 400)
    }

    func testAnETagRevalidatesWithNotModified() throws {
        let server = try demo()
        let first = try server.request("/api/search?text=hbf")
        let tag = try XCTUnwrap(first.header("ETag"))
        let again = try server.request("/api/search?text=hbf", headers: ["If-None-Match": tag])
        XCTAssertEqual(again.status, 304)
        XCTAssertTrue(again.body.isEmpty)
        XCTAssertNotEqual(try server.request("/api/search?text=zoo").header("ETag"), tag)
        XCTAssertEqual(try server.request("/api/search?text=hbf", headers: ["If-None-Match": "\"other\""]).status, 200)
        // HEAD: the GET's headers, no body.
        let head = try server.request("/api/search?text=hbf", method: "HEAD")
        XCTAssertEqual(head.status, 200)
        XCTAssertTrue(head.body.isEmpty)
        XCTAssertEqual(head.header("ETag"), tag)
        XCTAssertEqual(head.header("Content-Length"), String(first.body.count))
        let page = try server.request("/board/HBF")
        XCTAssertEqual(try server.request("/board/HBF", headers: ["If-None-Match": try XCTUnwrap(page.header("ETag"))]).status, 304)
    }

    /// Fetches `url` with Python's urllib, which (unlike URLSession) leaves gzip alone: the
    /// Content-Encoding, ETag and Vary headers on the first line, then the body as sent.
    private func rawFetch(_ url: String, gzip: Bool) throws -> (headers: [String], body: Data) {
        let script = """
            import sys, urllib.request
            request = urllib.request.Request(sys.argv[1], headers={"Accept-Encoding": sys.argv[2]})
            with urllib.request.urlopen(request) as answer:
                body = answer.read()
                print(answer.headers.get("Content-Encoding"), answer.headers.get("ETag"), answer.headers.get("Vary"))
                sys.stdout.flush()
                sys.stdout.buffer.write(body)
            """
        let run = try CommandRun.run("/usr/bin/env", ["python3", "-c", script, url, gzip ? "gzip, deflate" : "identity"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let data = Data(run.stdout.utf8)
        guard let newline = data.firstIndex(of: 0x0A) else { return ([], data) }
        return (String(decoding: data[..<newline], as: UTF8.self).split(separator: " ").map(String.init), Data(data[(newline + 1)...]))
    }

    func testGzipWhenAskedWithItsOwnTagAndTheSameBytes() throws {
        let server = try demo()
        let url = server.base + "/api/trip/T1?date=2026-03-02&format=geojson"
        let plain = try rawFetch(url, gzip: false)
        XCTAssertEqual(plain.headers.first, "None")
        XCTAssertEqual(plain.headers.last, "Accept-Encoding")
        // The body is binary: read it with Python and compare there.
        let script = """
            import gzip, sys, urllib.request
            def fetch(encoding):
                request = urllib.request.Request(sys.argv[1], headers={"Accept-Encoding": encoding})
                with urllib.request.urlopen(request) as answer:
                    return answer.headers.get("Content-Encoding"), answer.headers.get("ETag"), answer.read()
            encoding, tag, body = fetch("gzip")
            plain_encoding, plain_tag, plain = fetch("identity")
            assert encoding == "gzip" and plain_encoding is None, (encoding, plain_encoding)
            assert gzip.decompress(body) == plain, "the gzip body is the plain body"
            assert len(body) < len(plain), (len(body), len(plain))
            assert tag != plain_tag and tag.endswith('-gzip"'), (tag, plain_tag)
            print("ok", len(plain), len(body))
            """
        let run = try CommandRun.run("/usr/bin/env", ["python3", "-c", script, url])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("ok "), run.stdout)
        // A small answer goes as it is.
        XCTAssertEqual(try rawFetch(server.base + "/api/search?text=lodz", gzip: true).headers.first, "None")
    }

    func testPipelinedRequestsAreAnsweredInOrderAndHTTP10Closes() throws {
        let server = try demo()
        let port = try XCTUnwrap(server.base.split(separator: ":").last)
        // Over one socket: two requests sent at once (answered in order, on the same connection),
        // then HTTP/1.0 without keep-alive (answered, then closed by the server).
        let script = """
            import socket, sys
            def answers(payload, count):
                s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
                s.sendall(payload)
                data = b""
                while data.count(b"HTTP/1.") < count or not data.endswith(b"\\n"):
                    chunk = s.recv(65536)
                    if not chunk: break
                    data += chunk
                s.settimeout(2)
                try:
                    closed = s.recv(1) == b""
                except socket.timeout:
                    closed = False
                return data.decode(), closed
            two, closed = answers(b"GET /api/search?text=hbf HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nGET /api/nope HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n", 2)
            print(two.find("200 OK") < two.find("404 Not Found"), two.count("HTTP/1.1 "), closed)
            old, closed = answers(b"GET /api/feeds HTTP/1.0\\r\\n\\r\\n", 1)
            print(old.startswith("HTTP/1.0 200"), "connection: close" in old.lower(), closed)
            """
        let run = try CommandRun.run("/usr/bin/env", ["python3", "-c", script, String(port)])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, ["True 2 False", "True True True"], run.stdout)
    }

    func testAConnectionTheClientClosesIsClosedAfterItsAnswer() throws {
        let server = try demo()
        let port = try XCTUnwrap(server.base.split(separator: ":").last)
        // A client that closes its side (FIN) right after its request gets the answer, then the
        // server's close; one that closes an idle keep-alive connection gets the close at once.
        // Before, both connections stayed open on the server (CLOSE_WAIT) until it stopped.
        let script = """
            import socket, sys
            def closed_by_server(s):
                s.settimeout(5)
                data = b""
                try:
                    while True:
                        chunk = s.recv(65536)
                        if not chunk: return data, True
                        data += chunk
                except socket.timeout:
                    return data, False
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
            s.sendall(b"GET /api/search?text=hbf HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
            s.shutdown(socket.SHUT_WR)
            data, closed = closed_by_server(s)
            print(data.startswith(b"HTTP/1.1 200"), b"connection: close" in data.lower(), closed)
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
            s.sendall(b"GET /api/feeds HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
            first = s.recv(65536)
            s.shutdown(socket.SHUT_WR)
            rest, closed = closed_by_server(s)
            print(first.startswith(b"HTTP/1.1 200"), closed)
            """
        let run = try CommandRun.run("/usr/bin/env", ["python3", "-c", script, String(port)])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, ["True True True", "True True"], run.stdout)
    }

    func testAConnectionThatSendsNothingIsClosedAfterTheIdleTimeout() throws {
        let server = try RunningServer(database: try DemoDatabase.path(), arguments: ["--quiet", "--idle-timeout", "1"])
        defer { _ = server.stop() }
        let port = try XCTUnwrap(server.base.split(separator: ":").last)
        // One connection that never sends, one idle after an answer: both closed by the server
        // (EOF) within 8 s, and the server goes on answering.
        let script = """
            import socket, sys
            def closed_by_server(s):
                s.settimeout(8)
                try:
                    while s.recv(65536): pass
                    return True
                except socket.timeout:
                    return False
            silent = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
            used = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
            used.sendall(b"GET /api/feeds HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
            print(used.recv(65536).startswith(b"HTTP/1.1 200"), closed_by_server(used), closed_by_server(silent))
            """
        let run = try CommandRun.run("/usr/bin/env", ["python3", "-c", script, String(port)])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "True True True", run.stdout)
        XCTAssertEqual(try server.request("/api/feeds").status, 200)
    }

    func testCORSIsOffUnlessAnOriginIsGiven() throws {
        XCTAssertNil(try demo().request("/api/feeds").header("Access-Control-Allow-Origin"))
        let server = try RunningServer(database: try DemoDatabase.path(), arguments: ["--quiet", "--cors", "https://example.org"])
        defer { _ = server.stop() }
        XCTAssertEqual(try server.request("/api/feeds").header("Access-Control-Allow-Origin"), "https://example.org")
        let preflight = try server.request("/api/feeds", method: "OPTIONS")
        XCTAssertEqual(preflight.status, 204)
        XCTAssertEqual(preflight.header("Access-Control-Allow-Methods"), "GET, HEAD")
    }

    func testASaturatedServerSays503WithRetryAfter() throws {
        let server = try vilniusServer(["--quiet", "--connections", "1", "--queue", "0", "--time-limit", "2000"],
                                       needed: "saturating the server needs a question slow enough")
        defer { _ = server.stop() }
        // It holds the only connection until the time budget cuts it.
        let slow = LockedList()
        let heavy = Thread {
            let answer = try? server.request(ServeTests.heavyQuestion)
            slow.append("\(answer?.status ?? 0)")
        }
        heavy.start()
        var refused: RunningServer.Answer?
        for _ in 0..<30 where refused == nil && slow.items.isEmpty {
            usleep(50_000)
            let answer = try server.request("/api/feeds")
            if answer.status == 503 { refused = answer }
        }
        let busy = try XCTUnwrap(refused, "no 503 while the only connection was taken (heavy question: \(slow.items))")
        XCTAssertEqual(busy.header("Retry-After"), "1")
        XCTAssertTrue(busy.text.contains("busy"), busy.text)
        while slow.items.isEmpty { usleep(50_000) }
        XCTAssertEqual(slow.items, ["503"], "the heavy question ran out of its time budget")
        XCTAssertEqual(try server.request("/api/feeds").status, 200)
    }

    func testEveryPageFileIsServedFromTheBinary() throws {
        let server = try demo()
        let pages = Paths.projectRoot + "/Sources/TransitServer/Pages"
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: pages)).compactMap { $0 as? String }
            .filter { !$0.hasPrefix("leaflet/LICENSE") && !$0.hasPrefix("leaflet/README") }
        var served = 0
        for file in files {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: pages + "/" + file, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let answer = try server.request("/static/" + file)
            XCTAssertEqual(answer.status, 200, file)
            XCTAssertEqual(answer.body, try Data(contentsOf: URL(fileURLWithPath: pages + "/" + file)), file)
            served += 1
        }
        XCTAssertGreaterThan(served, 10)
        for (page, file) in [("/", "index.html"), ("/board/HBF", "board.html"), ("/trip/T1", "trip.html")] {
            let answer = try server.request(page)
            XCTAssertEqual(answer.body, try Data(contentsOf: URL(fileURLWithPath: pages + "/" + file)), page)
            XCTAssertEqual(answer.header("Content-Type"), "text/html; charset=utf-8")
        }
    }

    func testAHeavyQuestionRunsOutOfTimeAndTheServerGoesOnAnswering() throws {
        let server = try vilniusServer(["--quiet", "--time-limit", "20", "--connections", "1"],
                                       needed: "the time budget needs a feed large enough to be slow")
        defer { _ = server.stop() }
        let started = Date()
        let heavy = try server.request("/api/list/stop_times?where=SUBQUERY(trip.stop_times,%20$s,%20$s.stop.stop_name%20CONTAINS%20'zz').@count%20%3E%200")
        XCTAssertEqual(heavy.status, 503, heavy.text)
        XCTAssertTrue(heavy.text.contains("--time-limit"), heavy.text)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
        // One stop (no twins to tell apart by their stop times): a question well inside 20 ms.
        XCTAssertEqual(try server.request("/api/search?text=gedimino&limit=1").status, 200)
    }

    func testHeavyQuestionsHoldUpNoOtherWhileAConnectionIsFree() throws {
        let server = try vilniusServer(["--quiet", "--connections", "3", "--time-limit", "3000"],
                                       needed: "holding connections needs questions slow enough")
        defer { _ = server.stop() }
        // Two questions of far more than 3 s each hold two of the three connections (and, on a
        // machine of two cores or fewer, every core the pool lets run at once until they count as slow).
        let heavyDone = LockedList()
        for _ in 0..<2 {
            Thread {
                let answer = try? server.request(ServeTests.heavyQuestion)
                heavyDone.append("\(answer?.status ?? 0)")
            }.start()
        }
        usleep(200_000)
        var answeredMeanwhile = 0
        for _ in 0..<5 where heavyDone.items.isEmpty {
            let light = try server.request("/api/search?text=gedimino")
            XCTAssertEqual(light.status, 200, light.text)
            if heavyDone.items.isEmpty { answeredMeanwhile += 1 }
        }
        XCTAssertEqual(answeredMeanwhile, 5, "light questions waited for the heavy ones (\(heavyDone.items))")
        while heavyDone.items.count < 2 { usleep(50_000) }
        XCTAssertEqual(heavyDone.items, ["503", "503"], "both heavy questions ran out of their time budget")
    }

    func testAnImportUnderneathFailsNoRequestAndIsSeenAtOnce() throws {
        let folder = TemporaryDirectory()
        let db = folder.file("served.sqlite")
        XCTAssertEqual(try CommandRun.transit(["import", Paths.demoFeed, "--db", db, "--quiet"]).status, 0)
        let server = try RunningServer(database: db, arguments: ["--quiet"])
        defer { _ = server.stop() }
        let stop = LockedFlag()
        let failures = LockedList()
        let answered = LockedList()
        let requests = Thread {
            while !stop.isSet {
                do {
                    // FEED:ID names the stop before and after feeds with the same ids are added.
                    let answer = try server.request("/api/departures?stop=lindenau:HBF&at=2026-03-02+07:55")
                    if answer.status != 200 { failures.append("\(answer.status): \(answer.text)") } else { answered.append("") }
                } catch {
                    failures.append("\(error)")
                }
            }
            stop.done()
        }
        requests.start()
        for name in ["second", "third"] {
            let run = try CommandRun.transit(["import", Paths.demoFeed, "--feed", name, "--db", db, "--quiet"])
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        stop.set()
        stop.waitDone()
        XCTAssertEqual(failures.items.count, 0, "\(failures.items.prefix(3))")
        XCTAssertGreaterThan(answered.items.count, 10, "requests ran while the feeds were imported")
        let feeds = try XCTUnwrap(try server.request("/api/feeds").json() as? [[String: Any]])
        XCTAssertEqual(feeds.compactMap { $0["feed"] as? String }.sorted(), ["lindenau", "second", "third"])
    }

    /// A connection keeps its journey planner (the patterns it has read) from one question to the
    /// next, and makes a new one when the file changes underneath.
    func testAConnectionKeepsItsJourneyPlannerUntilTheFileChanges() throws {
        let folder = TemporaryDirectory()
        let db = folder.file("served.sqlite")
        XCTAssertEqual(try CommandRun.transit(["import", Paths.demoFeed, "--db", db, "--quiet"]).status, 0)
        let server = try RunningServer(database: db, arguments: ["--quiet", "--connections", "1"])
        defer { _ = server.stop() }
        /// The answer, and whether the question read the planner's timetable (its stop index and
        /// patterns, `planner_N`): explain=1 lists every statement the question ran.
        func ask(_ target: String) throws -> (result: NSObject, readTheTimetable: Bool) {
            let answer = try server.request(target + "&explain=1")
            XCTAssertEqual(answer.status, 200, answer.text)
            let body = try XCTUnwrap(try answer.json() as? [String: Any])
            let statements = try XCTUnwrap(body["explain"] as? [[String: Any]])
            XCTAssertFalse(statements.isEmpty)
            let read = statements.contains { ($0["sql"] as? String)?.contains("FROM \"planner_") == true }
            return (try XCTUnwrap(body["result"] as? NSObject), read)
        }
        let target = "/api/plan?from=HBF&to=STR&at=2026-03-02%2007:55"
        let first = try ask(target)
        let second = try ask(target)
        XCTAssertTrue(first.readTheTimetable, "the first question opens the planner")
        XCTAssertFalse(second.readTheTimetable, "the same connection kept it")
        XCTAssertEqual(first.result, second.result)
        let cli = try CommandRun.transit(["plan", "HBF", "STR", "--at", "2026-03-02 07:55", "--format", "json", "--db", db])
        XCTAssertEqual(first.result, try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? NSObject)
        // A feed added underneath: the connection opens the file again, with a new planner.
        XCTAssertEqual(try CommandRun.transit(["import", Paths.demoFeed, "--feed", "second", "--db", db, "--quiet"]).status, 0)
        let after = try ask("/api/plan?from=lindenau:HBF&to=lindenau:STR&at=2026-03-02%2007:55")
        XCTAssertTrue(after.readTheTimetable, "a new planner after the file changed")
        XCTAssertFalse(try ask("/api/plan?from=lindenau:HBF&to=lindenau:STR&at=2026-03-02%2007:55").readTheTimetable)
    }

    func testSIGTERMAnswersTheRequestInFlightAndEndsCleanly() throws {
        let server = try RunningServer(database: try DemoDatabase.path())
        XCTAssertEqual(try server.request("/api/feeds").status, 200)
        XCTAssertTrue(server.stderr.contains("GET /api/feeds 200"), server.stderr)
        // A request in flight when SIGTERM comes is still answered.
        let answered = LockedList()
        let inFlight = Thread {
            for _ in 0..<20 {
                if let answer = try? server.request("/api/plan?from=HBF&to=STR&at=2026-03-02+07:55") { answered.append("\(answer.status)") }
            }
        }
        inFlight.start()
        usleep(50_000)
        XCTAssertEqual(server.stop(), 0, server.stderr)
        XCTAssertFalse(answered.items.contains { $0 != "200" }, "\(answered.items)")
        XCTAssertThrowsError(try RunningServer.request(server.base + "/api/feeds", timeout: 2))
    }

    func testRealtimeIsStoredBesideTheServerAndStopsWithIt() throws {
        let folder = TemporaryDirectory()
        let db = folder.file("served.sqlite")
        XCTAssertEqual(try CommandRun.transit(["import", Paths.demoFeed, "--db", db, "--quiet"]).status, 0)
        let message = TransitRealtime_FeedMessage.with { message in
            message.header = .with { $0.gtfsRealtimeVersion = "2.0"; $0.timestamp = UInt64(Date().timeIntervalSince1970) }
            message.entity = [.with { entity in
                entity.id = "1"
                entity.tripUpdate = .with { update in
                    update.trip = .with { $0.tripID = "T1" }
                    update.stopTimeUpdate = [.with { $0.stopSequence = 2; $0.departure = .with { $0.delay = 120 } }]
                }
            }]
        }
        let path = try folder.write("updates.pb", bytes: try message.serializedBytes())
        let server = try RunningServer(database: db, arguments: ["--realtime", path, "--every", "5"])
        var stored: [Any] = []
        for _ in 0..<100 where stored.isEmpty {
            stored = try XCTUnwrap(try server.request("/api/list/realtime_trip_updates").json() as? [Any])
            if stored.isEmpty { usleep(100_000) }
        }
        XCTAssertEqual(stored.count, 1, "the message was stored by the refresh")
        let answer = try server.request("/api/list/realtime_trip_updates")
        XCTAssertEqual(answer.header("Cache-Control"), "max-age=5")
        XCTAssertEqual(server.stop(), 0, server.stderr)
        // The refresh ended with the server.
        let children = try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { $0.allSatisfy(\.isNumber) }.filter { pid in
            let commandLine = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            return commandLine.contains("transit-realtime") && commandLine.contains(db)
        }
        XCTAssertEqual(children, [], "transit realtime still runs after the server stopped")
    }

    func testTheServerRefusesAMissingDatabaseInOneLine() throws {
        let run = try CommandRun.transit(["serve", "--db", "/nonexistent/transit.sqlite", "--port", "0"], timeout: 30)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("/nonexistent/transit.sqlite"), run.stderr)
        for (arguments, flag) in [(["--port", "abc"], "--port"), (["--every", "1"], "--every"), (["--bogus"], "--bogus")] {
            let mistake = try CommandRun.transit(["serve"] + arguments, timeout: 30)
            XCTAssertEqual(mistake.status, 64, mistake.stderr)
            XCTAssertEqual(mistake.stderr.split(separator: "\n").count, 1, mistake.stderr)
            XCTAssertTrue(mistake.stderr.hasPrefix("Error: ") && mistake.stderr.contains(flag), mistake.stderr)
        }
        let help = try CommandRun.transit(["serve", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--time-limit"), help.stdout)
    }

    func testThePagesShowTheAPIsAnswersInABrowser() throws {
        // The demo database with realtime data stored at 07:55 (Berlin): T1 three minutes late,
        // T6 cancelled, so the board shows a delay and a cancelled mark.
        let folder = TemporaryDirectory()
        let db = folder.file("served.sqlite")
        try FileManager.default.copyItem(atPath: try DemoDatabase.path(), toPath: db)
        let message = TransitRealtime_FeedMessage.with { message in
            message.header = .with { $0.gtfsRealtimeVersion = "2.0"; $0.timestamp = 1_772_434_500 }
            message.entity = [.with { entity in
                entity.id = "late"
                entity.tripUpdate = .with { update in
                    update.trip = .with { $0.tripID = "T1"; $0.startDate = "20260302" }
                    update.stopTimeUpdate = [.with { $0.stopSequence = 1; $0.departure = .with { $0.delay = 180 } }]
                }
            }, .with { entity in
                entity.id = "cancelled"
                entity.tripUpdate = .with { update in
                    update.trip = .with { $0.tripID = "T6"; $0.startDate = "20260302"; $0.scheduleRelationship = .canceled }
                }
            }]
        }
        let stored = try CommandRun.transit(["realtime", try folder.write("updates.pb", bytes: try message.serializedBytes()), "--db", db])
        XCTAssertEqual(stored.status, 0, stored.stderr)
        let server = try RunningServer(database: db, arguments: ["--quiet"])
        defer { _ = server.stop() }
        // What the board asks: the cancelled departure is listed, marked, as the command line lists it.
        let board = "/api/departures?stop=HBF&at=2026-03-02%2007:55&within=60&cancelled=1"
        try assertSameAnswer(server, board, ["departures", "--stop", "HBF", "--at", "2026-03-02 07:55", "--within", "60", "--cancelled",
                                             "--format", "json"], database: db)
        let rows = try XCTUnwrap(try server.request(board).json() as? [[String: Any]])
        XCTAssertEqual(rows.map { "\($0["trip_id"]!) \($0["delay_s"]!) \($0["cancelled"]!)" }, ["T1 180 0", "T6 <null> 1"])
        let run = try CommandRun.run("/usr/bin/env", ["python3", Paths.projectRoot + "/Tests/Browser/browser_test.py", "--base", server.base,
                                                       "--stop", "HBF", "--at", "2026-03-02 07:55", "--screenshot", folder.file("board.png")], timeout: 300)
        if run.status == 77 { throw XCTSkip(run.stdout + run.stderr) }
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("T1 08:03, T6 08:30 cancelled"), "the board shows the delay and the cancellation: \(run.stdout)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("board.png")))
        // TRANSIT_BOARD_SCREENSHOT=docs/board.png keeps the screenshot (the README's).
        if let keep = ProcessInfo.processInfo.environment["TRANSIT_BOARD_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: folder.file("board.png"), toPath: keep)
        }
    }
}

/// A flag set by one thread and read by another, with a way to wait for the reader to finish.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    private let finished = DispatchSemaphore(value: 0)
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
    func done() { finished.signal() }
    func waitDone() { _ = finished.wait(timeout: .now() + 60) }
}

/// Strings appended from several threads.
private final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    var items: [String] { lock.lock(); defer { lock.unlock() }; return list }
    func append(_ item: String) { lock.lock(); list.append(item); lock.unlock() }
}
