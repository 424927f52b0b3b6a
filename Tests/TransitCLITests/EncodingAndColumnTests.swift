import XCTest
import Foundation
import TestSupport

/// Feeds as agencies save them: any common encoding, read right or refused with its cause; and
/// every required column of every required file, when missing, named in one line.
final class EncodingAndColumnTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() { directory = TemporaryDirectory() }
    override func tearDown() { directory = nil }

    /// The fixture feed with names Latin-1 can hold, as text.
    private var files: [String: String] {
        var files = FeedFixture().files
        files["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon\nS1,Hønefoss stasjon,60.17,10.25\nS2,Café Élysée,60.171,10.251\nS3,Zürich Straße,60.172,10.252\n"
        files["routes.txt"] = "route_id,agency_id,route_short_name,route_long_name,route_type\nR,A,1,Øst–Vest,3\n"
        return files
    }

    /// Writes the feed with every file encoded by `encode` into folder `name`.
    private func write(_ name: String, _ encode: (String) -> [UInt8]) throws -> String {
        for (file, text) in files { try directory.write(name + "/" + file, bytes: encode(text)) }
        return directory.file(name)
    }

    private func latin1(_ text: String) -> [UInt8] { text.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?") } }
    private func utf16(_ text: String, bigEndian: Bool, mark: Bool) -> [UInt8] {
        var bytes: [UInt8] = mark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 { bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        return bytes
    }

    private func transit(_ arguments: [String]) throws -> CommandRun { try CommandRun.transit(arguments) }

    /// What the database at `db` answers, without the feed column: the same feed in any encoding
    /// must give the same answers.
    private func answers(_ db: String) throws -> [String] {
        var lines: [String] = []
        for question in [["search", "honefoss"], ["search", "cafe elysee"], ["search", "zurich strasse"],
                         ["nearby", "60.17", "10.25", "--radius", "1000"], ["list", "routes"], ["list", "stops"]] {
            let run = try transit(question + ["--format", "csv", "--db", db])
            XCTAssertEqual(run.status, 0, run.stderr)
            lines += run.stdout.split(separator: "\r\n").map { String($0.drop { $0 != "," }) }
        }
        return lines
    }

    func testTheSameFeedInLatin1UTF16AndUTF8GivesTheSameAnswers() throws {
        let utf8 = directory.file("utf8.sqlite")
        XCTAssertEqual(try transit(["import", try write("utf8", { Array($0.utf8) }), "--db", utf8, "--quiet"]).status, 0)
        let expected = try answers(utf8)
        XCTAssertTrue(expected.contains { $0.hasPrefix(",S1,Hønefoss stasjon,60.17,10.25,") }, "\(expected)")
        XCTAssertTrue(expected.contains { $0.contains("Øst–Vest") }, "\(expected)")
        let variants: [(String, (String) -> [UInt8], [String], String?)] = [
            ("utf8-mark", { [0xEF, 0xBB, 0xBF] + Array($0.utf8) }, [], nil),
            ("latin1", latin1, [], "stops.txt: not UTF-8, read as Windows-1252; --encoding chooses another"),
            ("latin1-forced", latin1, ["--encoding", "iso-8859-1"], nil),
            ("latin9-forced", latin1, ["--encoding", "ISO-8859-15"], nil),
            ("cp1252-forced", latin1, ["--encoding", "windows-1252"], nil),
            ("utf16le-mark", { self.utf16($0, bigEndian: false, mark: true) }, [], nil),
            ("utf16be-mark", { self.utf16($0, bigEndian: true, mark: true) }, [], nil),
            ("utf16le-forced", { self.utf16($0, bigEndian: false, mark: false) }, ["--encoding", "utf-16"], nil),
        ]
        for (name, encode, flags, note) in variants {
            let db = directory.file(name + ".sqlite")
            let run = try transit(["import", try write(name, encode), "--db", db] + flags)
            XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
            if let note { XCTAssertTrue(run.stdout.contains("Note: " + note), "\(name): \(run.stdout)") }
            if note == nil { XCTAssertFalse(run.stdout.contains("Note:"), "\(name): \(run.stdout)") }
            var got = try answers(db)
            if name.hasPrefix("latin") || name.hasPrefix("cp1252") {
                // Latin-1 has no en dash: the route's name was saved as "Øst?Vest".
                got = got.map { $0.replacingOccurrences(of: "Øst?Vest", with: "Øst–Vest") }
            }
            XCTAssertEqual(got, expected, name)
        }
    }

    func testWindows1252AndLatin9ReadTheirOwnCharacters() throws {
        // 0x80 is € in Windows-1252, 0xA4 is € in ISO-8859-15 (¤ in Latin-1), 0x9A is š in Windows-1252.
        var fixture = files
        fixture["stops.txt"] = nil
        let stops = Array("stop_id,stop_name,stop_lat,stop_lon\nS1,".utf8) + [0x80, 0x20, 0xA4, 0x20, 0x9A] + Array(",60.17,10.25\nS2,B,60.1,10.2\nS3,C,60.1,10.2\n".utf8)
        for (file, text) in fixture { try directory.write("euro/" + file, text) }
        try directory.write("euro/stops.txt", bytes: stops)
        for (flags, name) in [([String](), "€ ¤ š"), (["--encoding", "iso-8859-15"], "\u{80} € \u{9A}"), (["--encoding", "iso-8859-1"], "\u{80} ¤ \u{9A}")] {
            let db = directory.file("euro\(flags.count)\(name.count).sqlite")
            let run = try transit(["import", directory.file("euro"), "--db", db, "--quiet"] + flags)
            XCTAssertEqual(run.status, 0, run.stderr)
            let listed = try transit(["list", "stops", "--where", "stop_id=S1", "--format", "json", "--db", db])
            let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            XCTAssertEqual(rows.first?["stop_name"] as? String, name, "\(flags)")
        }
    }

    func testForcedUTF8RefusesOtherBytesWithFileLineAndField() throws {
        let feed = try write("latin", latin1)
        let run = try transit(["import", feed, "--encoding", "utf-8", "--db", directory.file("db.sqlite")])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.hasPrefix("Error: stops.txt line 2, field stop_name: is not UTF-8 text (--encoding utf-8 was given"), run.stderr)
        let unknown = try transit(["import", feed, "--encoding", "ebcdic", "--db", directory.file("db.sqlite")])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("--encoding takes one of utf-8, utf-16, windows-1252, iso-8859-1, iso-8859-15"), unknown.stderr)
    }

    func testBrokenUTF16IsRefusedWithItsLine() throws {
        var bytes = utf16("stop_id,stop_name,stop_lat,stop_lon\nS1,A,1,1\nS2,", bigEndian: false, mark: true)
        bytes += [0x00, 0xD8]  // a high surrogate with no low one after it
        bytes += utf16("B,1,1\nS3,C,1,1\n", bigEndian: false, mark: false)
        for (file, text) in FeedFixture().files where file != "stops.txt" { try directory.write("broken/" + file, text) }
        try directory.write("broken/stops.txt", bytes: bytes)
        let run = try transit(["import", directory.file("broken"), "--db", directory.file("db.sqlite")])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("stops.txt line 3, field stop_name: is not valid UTF-16 text"), run.stderr)
    }

    /// Every required column of every file GTFS requires, removed in turn: one line naming both.
    func testEachMissingRequiredColumnIsNamed() throws {
        let required: [(file: String, columns: [String])] = [
            ("agency.txt", ["agency_name", "agency_url", "agency_timezone"]),
            ("stops.txt", ["stop_id", "stop_name", "stop_lat", "stop_lon"]),
            ("routes.txt", ["route_id", "route_type"]),
            ("trips.txt", ["route_id", "service_id", "trip_id"]),
            ("stop_times.txt", ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"]),
            ("calendar.txt", ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "start_date", "end_date"]),
        ]
        var count = 0
        for (file, columns) in required {
            for column in columns {
                let fixture = FeedFixture()
                let text = try XCTUnwrap(fixture.files[file])
                let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
                let position = try XCTUnwrap(lines[0].firstIndex(of: column), "\(file) has \(column)")
                let without = lines.map { row in row.enumerated().filter { $0.offset != position }.map(\.element).joined(separator: ",") }
                count += 1
                let feed = try fixture.with(file, without.joined(separator: "\n") + "\n").write(to: directory, as: "missing\(count)")
                let run = try transit(["import", feed, "--db", directory.file("db.sqlite")])
                XCTAssertEqual(run.status, 1, "\(file) without \(column): \(run.stderr)")
                XCTAssertEqual(run.stderr, "Error: \(file): missing required column \(column)\n")
            }
        }
        let dates = try FeedFixture().with("calendar.txt", nil)
            .with("calendar_dates.txt", "service_id,date\nWD,20260302\n").write(to: directory, as: "dates")
        XCTAssertEqual(try transit(["import", dates, "--db", directory.file("db.sqlite")]).stderr,
                       "Error: calendar_dates.txt: missing required column exception_type\n")
        let names = try FeedFixture().with("routes.txt", "route_id,agency_id,route_type\nR,A,3\n").write(to: directory, as: "names")
        XCTAssertEqual(try transit(["import", names, "--db", directory.file("db.sqlite")]).stderr,
                       "Error: routes.txt: missing required column route_short_name or route_long_name (GTFS needs one of them)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("db.sqlite")), "no database is half-written")
    }

    func testGTFSFlexRowsAreCountedAsNotSupportedYet() throws {
        let feed = try FeedFixture().with("stop_times.txt", """
            trip_id,arrival_time,departure_time,stop_id,location_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window
            T,08:00:00,08:00:00,S1,,1,,
            T,,,,ZONE1,2,08:05:00,08:30:00
            T,08:20:00,08:20:00,S3,,3,,
            """).write(to: directory, as: "flex")
        let run = try transit(["import", feed, "--db", directory.file("db.sqlite")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("1 × stop_times.txt: GTFS-Flex rows (a location_id or location_group_id instead of a stop_id) are not supported yet, e.g. line 3"), run.stdout)
        // A flex-only file has no stop_id column at all: still not an error.
        let only = try FeedFixture().with("stop_times.txt", """
            trip_id,location_group_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window
            T,G1,1,08:00:00,09:00:00
            """).write(to: directory, as: "flexonly")
        let refused = try transit(["import", only, "--db", directory.file("flex.sqlite")])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "Error: stop_times.txt: has no stop times that could be loaded (1 GTFS-Flex row is not supported yet)\n")
    }
}

/// Every other message that can end an import, each produced by the feed or command line that
/// causes it: exit 1 (64 for the command line) and exactly that one line.
final class ImportRefusalTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() { directory = TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private func refused(_ fixture: FeedFixture, _ expected: String, arguments: [String] = [], status: Int32 = 1,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        let feed = try fixture.write(to: directory, as: "feed\(directory.contents().count)")
        let run = try CommandRun.transit(["import", feed, "--db", directory.file("db.sqlite")] + arguments)
        XCTAssertEqual(run.status, status, run.stderr, file: file, line: line)
        XCTAssertEqual(run.stderr, "Error: " + expected + "\n", file: file, line: line)
    }

    func testEachValueAndFileProblemHasItsLine() throws {
        let base = FeedFixture()
        let calendarHeader = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
        let cases: [(FeedFixture, String)] = [
            (base.with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\n,A,52.5,13.4\n"), "stops.txt line 2, field stop_id: is empty but required"),
            (base.with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,A,,13.4\n"), "stops.txt line 2, field stop_lat: is empty but required for location_type 0"),
            (base.with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,A,52.5,\n"), "stops.txt line 2, field stop_lon: is empty but required for location_type 0"),
            (base.with("agency.txt", "agency_name,agency_url,agency_timezone\n"), "agency.txt: has a header but no agency; the feed needs one to know its time zone"),
            (base.with("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type\nR,A,1,One,bus\n"), "routes.txt line 2, field route_type: 'bus' is not a whole number"),
            (base.with("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type\nR,A,1,One,\n"), "routes.txt line 2, field route_type: is empty but required"),
            (base.with("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type\n"), "routes.txt: has a header but no routes"),
            (base.with("calendar.txt", calendarHeader + "WD,,1,1,1,1,0,0,20260101,20261231\n"), "calendar.txt line 2, field monday: is empty but required (0 or 1)"),
            (base.with("calendar.txt", calendarHeader + "WD,1,1,1,1,1,0,0,,20261231\n"), "calendar.txt line 2, field start_date: is empty but required"),
            (base.with("calendar.txt", calendarHeader + "WD,1,1,1,1,1,0,0,20261231,20260101\n"), "calendar.txt line 2, field end_date: 2026-01-01 is before start_date 2026-12-31"),
            (base.with("calendar.txt", nil).with("calendar_dates.txt", "service_id,date,exception_type\nWD,20260302,\n"), "calendar_dates.txt line 2, field exception_type: is empty but required (1 or 2)"),
            (base.with("calendar.txt", nil).with("calendar_dates.txt", "service_id,date,exception_type\n"), "calendar_dates.txt: has no rows: no trip would ever run"),
            (base.with("trips.txt", "route_id,service_id,trip_id\nGHOST,WD,T\n"), "trips.txt: has no trips that could be loaded"),
            (base.with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,S1,\n"), "stop_times.txt line 2, field stop_sequence: is empty but required"),
            (base.with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,S1,-1\n"), "stop_times.txt line 2, field stop_sequence: -1 is negative"),
            (base.with("frequencies.txt", "trip_id,start_time,end_time,headway_secs\nT,,09:00:00,600\n"), "frequencies.txt line 2, field start_time: is empty but required"),
            (base.with("frequencies.txt", "trip_id,start_time,end_time,headway_secs\nT,08:00:00,,600\n"), "frequencies.txt line 2, field end_time: is empty but required"),
            (base.with("frequencies.txt", "trip_id,start_time,end_time,headway_secs\nT,08:00:00,09:00:00,0\n"), "frequencies.txt line 2, field headway_secs: must be a positive number of seconds"),
        ]
        for (fixture, expected) in cases { try refused(fixture, expected) }
        // Text: a header that is not text, and a file cut inside a character.
        let latinHeader = try base.with("stops.txt", nil).write(to: directory, as: "header")
        try directory.write("header/stops.txt", bytes: Array("stop_id,stop_name,stop_lat,stop_lon,h".utf8) + [0xFC] + Array("he\nS1,A,1,1,2\n".utf8))
        let header = try CommandRun.transit(["import", latinHeader, "--encoding", "utf-8", "--db", directory.file("db.sqlite")])
        XCTAssertEqual(header.status, 1)
        XCTAssertEqual(header.stderr, "Error: stops.txt line 1: the header is not valid UTF-8 text\n")
        let cut = try base.with("stops.txt", nil).write(to: directory, as: "cut")
        try directory.write("cut/stops.txt", bytes: Array("stop_id,stop_lat,stop_lon,stop_name\nS1,1,1,A\nS2,1,1,B\nS3,1,1,Ł".utf8).dropLast())
        let cutRun = try CommandRun.transit(["import", cut, "--db", directory.file("db.sqlite")])
        XCTAssertEqual(cutRun.stderr, "Error: stops.txt line 4, field stop_name: is not UTF-8 text: the file ends inside a character (is it cut short?)\n")
    }

    func testEachDatabaseAndCommandLineProblemHasItsLine() throws {
        let feed = try FeedFixture().write(to: directory, as: "good")
        func run(_ arguments: [String]) throws -> CommandRun { try CommandRun.transit(["import"] + arguments) }
        let noFolder = try run([feed, "--db", directory.file("nowhere/db.sqlite")])
        XCTAssertEqual(noFolder.stderr, "Error: \(directory.file("nowhere/db.sqlite")): the folder for the database does not exist\n")
        let noFolderURL = try run(["http://127.0.0.1:9/feed.zip", "--db", directory.file("nowhere/db.sqlite")])
        XCTAssertEqual(noFolderURL.stderr, "Error: \(directory.file("nowhere/db.sqlite")): the folder for the database does not exist\n")
        try FileManager.default.createDirectory(atPath: directory.file("adir"), withIntermediateDirectories: true)
        let intoFolder = try run([feed, "--db", directory.file("adir")])
        XCTAssertEqual(intoFolder.status, 1)
        XCTAssertTrue(intoFolder.stderr.hasPrefix("Error: \(directory.file("adir")): cannot replace the database: "), intoFolder.stderr)
        let newer = directory.file("newer.sqlite")
        XCTAssertEqual(try CommandRun.run("/usr/bin/env", ["sqlite3", newer, "CREATE TABLE metadata (key TEXT PRIMARY KEY, value TEXT); INSERT INTO metadata VALUES ('schema_version', '99')"]).status, 0)
        let newerRun = try run([feed, "--db", newer])
        XCTAssertEqual(newerRun.stderr, "Error: \(newer) was written by another version of transit (schema 99, this one reads 5): re-import it with `transit import FEED --db \(newer)`\n")
        let notURL = try run(["http://", "--feed", "x", "--db", directory.file("db.sqlite")])
        XCTAssertEqual(notURL.stderr, "Error: http:// is not a URL transit can download\n")
        let usage: [([String], String)] = [
            ([], "give the feed to import (a .zip, a folder or a URL), or --feed NAME to import that feed again from where it came from"),
            ([feed, "--header", "no colon"], "--header takes \"NAME: VALUE\", got 'no colon'"),
            ([feed, "--feed", "Not Valid"], "--feed 'Not Valid' is not a feed name: use only a-z 0-9 - _"),
        ]
        for (arguments, message) in usage {
            let result = try run(arguments + ["--db", directory.file("db.sqlite")])
            XCTAssertEqual(result.status, 64, "\(arguments)")
            XCTAssertEqual(result.stderr, "Error: \(message) (see 'transit import --help')\n")
        }
        let engine = try CommandRun.run((Paths.transitBinary as NSString).deletingLastPathComponent + "/transit-import", [])
        XCTAssertEqual(engine.status, 64)
        XCTAssertEqual(engine.stderr, "Error: transit-import runs imports for `transit import FEED`; use that command\n")
    }
}
