import Foundation
import TestSupport
import XCTest

/// The command line speaks with one voice: every undeclared option is named the same way with
/// the nearest declared one suggested (whichever check meets it first), a date that is not in
/// the calendar is called so, and `--explain` warns only about tables of ours.
final class OneVoiceTests: XCTestCase {
    private func error(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let run = try CommandRun.transit(arguments + ["--db", try DemoDatabase.path()])
        XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)", file: file, line: line)
        return run.stderr
    }

    func testEveryUnknownOptionIsNamedWithTheNearestDeclaredOne() throws {
        let cases: [([String], String)] = [
            (["departures", "--stopp", "HBF"], "Error: Unknown option '--stopp'. Did you mean '--stop'? (see 'transit departures --help')\n"),
            (["nearby", "52.5", "13.3", "--radiuss", "300"], "Error: Unknown option '--radiuss'. Did you mean '--radius'? (see 'transit nearby --help')\n"),
            (["plan", "HBF", "STR", "--att", "2026-03-02 08:00"], "Error: Unknown option '--att'. Did you mean '--at'? (see 'transit plan --help')\n"),
            (["reach", "HBF", "--at", "2026-03-02 08:00", "--max-ride", "2"], "Error: Unknown option '--max-ride'. Did you mean '--max-rides'? (see 'transit reach --help')\n"),
            (["search", "gorli", "--limt", "3"], "Error: Unknown option '--limt'. Did you mean '--limit'? (see 'transit search --help')\n"),
            (["trip", "T1", "--frobnicate"], "Error: Unknown option '--frobnicate' (see 'transit trip --help')\n"),
        ]
        for (arguments, expected) in cases {
            XCTAssertEqual(try error(arguments), expected, arguments.joined(separator: " "))
        }
    }

    func testADateThatIsNotInTheCalendarIsCalledSo() throws {
        XCTAssertEqual(try error(["trip", "T1", "--date", "2026-02-30"]), "Error: --date: 2026-02-30 is not a date (see 'transit trip --help')\n")
        XCTAssertEqual(try error(["stats", "--date", "2026-13-01"]), "Error: --date: 2026-13-01 is not a date (see 'transit stats --help')\n")
        XCTAssertEqual(try error(["trip", "T1", "--date", "tomorrow"]), "Error: --date takes YYYY-MM-DD, got 'tomorrow' (see 'transit trip --help')\n")
    }

    func testExplainWarnsAboutNoScanOfSQLitesOwnSchemaTable() throws {
        let run = try CommandRun.transit(["plan", "HBF", "STR", "--at", "2026-03-02 07:55", "--explain", "--db", try DemoDatabase.path()])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("-- statement 1"), "statements are printed: \(run.stderr.prefix(200))")
        XCTAssertFalse(run.stderr.contains("every row of sqlite_master"), run.stderr)
    }
}
