import XCTest
import Foundation
import TestSupport

/// The bad-input corpus: broken feeds written here, each imported by the real binary over an
/// existing database. Feeds that are broken must fail with one line naming what is wrong and
/// leave the database as it was; odd but valid CSV must import. Nothing may crash or hang.
final class HostileFeedTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var database: String!
    private var fingerprint: String?

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        database = directory.file("db.sqlite")
        let run = try CommandRun.transit(["import", Paths.demoFeed, "--db", database, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        fingerprint = databaseFingerprint(database)
    }

    override func tearDown() { directory = nil }

    private var written = 0

    /// A feed folder: the valid fixture with `changes` applied (nil removes a file).
    private func feed(_ changes: [String: String?]) throws -> String {
        var fixture = FeedFixture()
        for (name, contents) in changes { fixture = fixture.with(name, contents ?? nil) }
        written += 1
        return try fixture.write(to: directory, as: "feed\(written)")
    }

    private func feedWithBytes(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = try feed([name: nil])
        try directory.write(relativePath(path) + "/" + name, bytes: bytes)
        return path
    }

    /// `path` relative to the test folder.
    private func relativePath(_ path: String) -> String {
        String(path.dropFirst(directory.path.count + 1))
    }

    /// Imports `feed` and checks the failure: exit 1, one line containing every fragment, no
    /// temporary file, and the previous database unchanged.
    private func assertRefused(_ feed: String, _ fragments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try CommandRun.transit(["import", feed, "--db", database], timeout: 60)
        XCTAssertEqual(run.status, 1, "expected a clean failure: \(run.stderr)", file: file, line: line)
        XCTAssertTrue(run.stderr.hasPrefix("Error: "), run.stderr, file: file, line: line)
        XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, "one line: \(run.stderr)", file: file, line: line)
        for fragment in fragments {
            XCTAssertTrue(run.stderr.contains(fragment), "'\(fragment)' not in: \(run.stderr)", file: file, line: line)
        }
        XCTAssertEqual(databaseFingerprint(database), fingerprint, "the previous database changed", file: file, line: line)
        XCTAssertFalse(directory.contents().contains { $0.hasSuffix(".tmp") }, "a temporary file was left", file: file, line: line)
    }

    /// Imports `feed` and expects success; returns stdout.
    @discardableResult
    private func assertImported(_ feed: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let run = try CommandRun.transit(["import", feed, "--db", directory.file("ok.sqlite")], timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        return run.stdout
    }

    private func zip(_ entries: [String: [UInt8]], as name: String) throws -> String {
        let source = directory.file("zip-source-\(name)")
        for (entry, bytes) in entries { try directory.write("zip-source-\(name)/" + entry, bytes: bytes) }
        let path = directory.file(name)
        let made = try CommandRun.run("/usr/bin/env", ["python3", "-c", """
            import os, sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                for root, _, files in os.walk(sys.argv[2]):
                    for f in sorted(files):
                        p = os.path.join(root, f)
                        z.write(p, os.path.relpath(p, sys.argv[2]))
            """, path, source])
        XCTAssertEqual(made.status, 0, made.stderr)
        return path
    }

    // MARK: Archives and folders

    func testNotAZipTruncatedZipEmptyZipAndEmptyFolder() throws {
        try directory.write("text.zip", "plain text, not an archive")
        try assertRefused(directory.file("text.zip"), ["text.zip", "is not a readable zip archive", "cut short or not a zip at all"])

        let good = try zip(FeedFixture().files.mapValues { Array($0.utf8) }, as: "good.zip")
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: good))
        try directory.write("truncated.zip", bytes: Array(bytes.prefix(bytes.count / 2)))
        try assertRefused(directory.file("truncated.zip"), ["truncated.zip"])

        try directory.write("empty.zip", bytes: [0x50, 0x4B, 0x05, 0x06] + Array(repeating: 0, count: 18))
        try assertRefused(directory.file("empty.zip"), ["has no agency.txt"])

        let emptyFolder = directory.file("nothing")
        try FileManager.default.createDirectory(atPath: emptyFolder, withIntermediateDirectories: true)
        try directory.write("nothing/readme.md", "no GTFS here")
        try assertRefused(emptyFolder, ["has no agency.txt"])
    }

    func testZipBombIsStreamedWithBoundedMemory() throws {
        // stop_times.txt inflates to 512 MiB of one letter with no line break, from about 500 KiB.
        var entries = FeedFixture().files.mapValues { Array($0.utf8) }
        entries["stop_times.txt"] = nil
        let path = try zip(entries, as: "bomb.zip")
        let appended = try CommandRun.run("/usr/bin/env", ["python3", "-c", """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'a', zipfile.ZIP_DEFLATED) as z:
                with z.open('stop_times.txt', 'w', force_zip64=True) as f:
                    f.write(b'trip_id,arrival_time,departure_time,stop_id,stop_sequence\\n')
                    chunk = b'a' * (1 << 20)
                    for _ in range(512): f.write(chunk)
            """, path])
        XCTAssertEqual(appended.status, 0, appended.stderr)
        let compressed = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        XCTAssertLessThan(compressed, 2 << 20)
        try assertRefused(path, ["stop_times.txt line 2", "longer than 16 MiB"])
        // The import's own peak memory, measured by a parent that runs nothing else.
        let measured = try CommandRun.run("/usr/bin/env", ["python3", "-c", """
            import resource, subprocess, sys
            subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """, Paths.transitBinary, "import", path, "--db", directory.file("bomb.sqlite")])
        let peakKiB = Int(measured.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max
        XCTAssertLessThan(peakKiB, 150 * 1024, "memory must not grow with the inflated size (peak \(peakKiB) KiB)")
    }

    // MARK: CSV structure

    func testEmptyFilesAndHeaderOnly() throws {
        try assertRefused(try feed(["stops.txt": ""]), ["stops.txt", "the file is empty"])
        try assertRefused(try feed(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n"]), ["stops.txt", "has a header but no stops"])
        try assertRefused(try feed(["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence"]), ["stop_times.txt", "no stop times"])
    }

    func testHeaderProblems() throws {
        try assertRefused(try feed(["stops.txt": "stop_id,stop_name,stop_id,stop_lat,stop_lon\nS1,A,S1,1,1\n"]),
                          ["stops.txt line 1", "field stop_id", "names column 'stop_id' twice"])
        try assertRefused(try feed(["routes.txt": "route_id,agency_id,route_short_name\nR,A,1\n"]),
                          ["routes.txt: missing required column route_type"])
    }

    func testRaggedLinesAndQuotes() throws {
        try assertRefused(try feed(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,A,1,1\nS2,B,1\n"]),
                          ["stops.txt line 3", "3 fields where the header has 4"])
        try assertRefused(try feed(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,A,1,1,extra\n"]),
                          ["stops.txt line 2", "5 fields where the header has 4"])
        try assertRefused(try feed(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,A,1,1\nS2,\"never closed,1,1\n"]),
                          ["stops.txt line 3", "unterminated quote"])
    }

    func testOddButValidCSVImports() throws {
        // A stray quote inside an unquoted field is text; CR-only line ends; a 1 MB field; 10,000 columns.
        let stray = try feed(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,12\" Platz,52.5,13.4\nS2,B,52.5,13.4\nS3,C,52.5,13.4\n"])
        try assertImported(stray)
        let cr = try feed(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\rS1,A,52.5,13.4\rS2,B,52.5,13.4\rS3,C,52.5,13.4\r"])
        try assertImported(cr)
        let counted = try CommandRun.run("/usr/bin/env", ["sqlite3", directory.file("ok.sqlite"), "SELECT group_concat(stop_id) FROM stops WHERE feed = (SELECT MAX(id) FROM feeds)"])
        XCTAssertEqual(counted.stdout, "S1,S2,S3\n", "CR-only line ends give three rows")
        let big = String(repeating: "x", count: 1 << 20)
        try assertImported(try feed(["stops.txt": "stop_id,stop_name,stop_desc,stop_lat,stop_lon\nS1,A,\(big),52.5,13.4\nS2,B,,52.5,13.4\nS3,C,,52.5,13.4\n"]))
        let wide = "stop_id,stop_name,stop_lat,stop_lon," + (0..<9_996).map { "x\($0)" }.joined(separator: ",")
        let row = { (id: String) in "\(id),N,52.5,13.4," + String(repeating: ",", count: 9_995) }
        try assertImported(try feed(["stops.txt": wide + "\n" + ["S1", "S2", "S3"].map(row).joined(separator: "\n") + "\n"]))
    }

    func testNULBytesAndUTF8ThatIsNotAreRefusedWithTheLine() throws {
        try assertRefused(try feedWithBytes("stops.txt", Array("stop_id,stop_name,stop_lat,stop_lon\nS1,A\u{0}B,1,1\n".utf8)),
                          ["stops.txt line 2", "field stop_name", "NUL byte"])
        // UTF-8 text ("Zoo") and then "Münster" saved as Windows-1252 (ü is the single byte 0xFC):
        // the file mixes encodings, so it is refused at the field rather than guessed.
        let mixed = Array("stop_id,stop_name,stop_lat,stop_lon\nS1,Zoo Köln,1,1\nS2,M".utf8) + [0xFC] + Array("nster,1,1\nS3,C,1,1\n".utf8)
        try assertRefused(try feedWithBytes("stops.txt", mixed), ["stops.txt line 3", "field stop_name", "mixes encodings", "--encoding"])
    }

    // MARK: Values

    func testBadCoordinates() throws {
        for (value, fragment) in [("\"52,5\"", "not a decimal number"), ("NaN", "not a decimal number"), ("1e400", "not a decimal number"),
                                  ("-91", "outside [-90, 90]"), ("inf", "not a decimal number")] {
            try assertRefused(try feed(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,A,\(value),13.4\n"]),
                              ["stops.txt line 2", "field stop_lat", fragment])
        }
        try assertRefused(try feed(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,A,52.5,180.5\n"]),
                          ["stops.txt line 2", "field stop_lon", "outside [-180, 180]"])
    }

    func testBadTimesAndDates() throws {
        for value in ["25:61:00", "-1:00:00", "8:5:0", "noon"] {
            try assertRefused(try feed(["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,S1,1\nT,\(value),\(value),S2,2\n"]),
                              ["stop_times.txt line 3", "field arrival_time", "'\(value)' is not a GTFS time"])
        }
        try assertRefused(try feed(["calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20150231,20151231\n"]),
                          ["calendar.txt line 2", "field start_date", "'20150231' is not a date"])
        try assertRefused(try feed(["calendar_dates.txt": "service_id,date,exception_type\nWD,20261301,1\n"]),
                          ["calendar_dates.txt line 2", "field date"])
    }

    func testUnknownLocationTypeAndBadParents() throws {
        try assertRefused(try feed(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon,location_type\nS1,A,1,1,7\n"]),
                          ["stops.txt line 2", "field location_type", "'7' is not one of 0–4"])
        // A parent that does not exist, or is the stop itself: the stop is kept, the reference dropped and reported.
        let summary = try assertImported(try feed(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon,parent_station\nS1,A,52.5,13.4,GHOST\nS2,B,52.5,13.4,S2\nS3,C,52.5,13.4,\n"]))
        XCTAssertTrue(summary.contains("1 × stops.txt: parent_station not in stops.txt (stop kept without a parent), e.g. line 2: parent_station 'GHOST'"), summary)
        XCTAssertTrue(summary.contains("1 × stops.txt: parent_station the stop itself (stop kept without a parent), e.g. line 3: parent_station 'S2'"), summary)
    }
}
