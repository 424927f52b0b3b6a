import XCTest
import Foundation
import TestSupport

/// Colour on a terminal (a pseudo-terminal made by `script`), never in a pipe unless asked,
/// `NO_COLOR` and `CLICOLOR_FORCE`, route badges in the feed's colours with a readable text colour,
/// and tables cut to the terminal's width.
final class ColorOutputTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var database: String { directory.file("colors.sqlite") }
    private let escape = "\u{1B}["

    /// Gold (light: black text computed), navy (dark: white text computed), and green with the
    /// feed's own white text; trips leave S1 at 08:00, 08:10 and 08:20.
    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        let feed = try FeedFixture()
            .with("routes.txt", """
                route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color
                GOLD,A,G,Gold line,3,FFD700,
                NAVY,A,N,Navy line,3,000080,
                GREEN,A,E,Green line through a very long name of streets and squares,3,008000,FFFFFF

                """)
            .with("trips.txt", "route_id,service_id,trip_id,trip_headsign\nGOLD,WD,T1,Somewhere far away beyond the river\nNAVY,WD,T2,Zoo\nGREEN,WD,T3,Park\n")
            .with("stop_times.txt", """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1
                T1,08:10:00,08:10:00,S2,2
                T2,08:10:00,08:10:00,S1,1
                T2,08:20:00,08:20:00,S2,2
                T3,08:20:00,08:20:00,S1,1
                T3,08:30:00,08:30:00,S2,2

                """)
            .write(to: directory)
        XCTAssertEqual(try CommandRun.transit(["import", feed, "--db", database, "--quiet"]).status, 0)
    }

    override func tearDown() { directory = nil }

    private let departures = ["departures", "--stop", "S1", "--at", "2026-03-02 07:55", "--within", "60"]

    /// `transit ARGUMENTS` on a pseudo-terminal, with `environment` (NO_COLOR and CLICOLOR_FORCE unset first).
    private func onTerminal(_ arguments: [String], environment: [String] = []) throws -> String {
        let command = (["env", "-u", "NO_COLOR", "-u", "CLICOLOR_FORCE"] + environment + [Paths.transitBinary] + arguments + ["--db", database])
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let run = try CommandRun.run("/usr/bin/script", ["-qec", command, "/dev/null"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// `transit ARGUMENTS` into a pipe.
    private func inPipe(_ arguments: [String], environment: [String] = []) throws -> String {
        let run = try CommandRun.run("/usr/bin/env", ["-u", "NO_COLOR", "-u", "CLICOLOR_FORCE"] + environment + [Paths.transitBinary] + arguments + ["--db", database])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }

    func testATerminalGetsRouteBadgesInTheFeedsColoursAndABoldHeader() throws {
        let table = try onTerminal(departures)
        XCTAssertTrue(table.hasPrefix(escape + "1mTime"), table)
        // Gold is light: black text; navy is dark: white text; green keeps the feed's white.
        XCTAssertTrue(table.contains(escape + "48;2;255;215;0m" + escape + "38;2;0;0;0mG" + escape + "0m"), table)
        XCTAssertTrue(table.contains(escape + "48;2;0;0;128m" + escape + "38;2;255;255;255mN" + escape + "0m"), table)
        XCTAssertTrue(table.contains(escape + "48;2;0;128;0m" + escape + "38;2;255;255;255mE" + escape + "0m"), table)
        let routes = try onTerminal(["routes"])
        XCTAssertTrue(routes.contains(escape + "48;2;255;215;0m" + escape + "38;2;0;0;0mG" + escape + "0m"), routes)
    }

    func testPipesHaveNoEscapeCodesUnlessAsked() throws {
        XCTAssertFalse(try inPipe(departures).contains(escape), "auto in a pipe")
        XCTAssertTrue(try inPipe(departures + ["--color", "always"]).contains(escape + "48;2;255;215;0m"), "--color always into a pipe")
        XCTAssertTrue(try inPipe(departures, environment: ["CLICOLOR_FORCE=1"]).contains(escape + "1mTime"), "CLICOLOR_FORCE")
        XCTAssertFalse(try onTerminal(departures, environment: ["NO_COLOR=1"]).contains(escape), "NO_COLOR on a terminal")
        XCTAssertFalse(try onTerminal(departures + ["--color", "never"]).contains(escape), "--color never on a terminal")
        for format in ["json", "csv", "geojson"] {
            XCTAssertFalse(try onTerminal(departures + ["--format", format, "--color", "always"]).contains(escape), format)
        }
    }

    func testTablesFitTheTerminalWidth() throws {
        let wide = try inPipe(departures)
        XCTAssertTrue(wide.contains("Somewhere far away beyond the river"), "a pipe gets whole names: \(wide)")
        let narrow = try onTerminal(departures + ["--color", "never"], environment: ["COLUMNS=50"])
        let lines = narrow.split(separator: "\n")
        XCTAssertEqual(lines.count, 4, narrow)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 50 }, "every line fits 50 columns: \(narrow)")
        XCTAssertTrue(narrow.contains("…"), "a headsign cut to fit: \(narrow)")
        XCTAssertTrue(lines.dropFirst().allSatisfy { $0.hasPrefix("08:") }, "no row wraps: \(narrow)")
    }

    func testInterpolatedTimesAreDimOnATerminal() throws {
        let demo = directory.file("demo.sqlite")
        try FileManager.default.copyItem(atPath: try DemoDatabase.path(), toPath: demo)
        let run = try CommandRun.run("/usr/bin/env", ["-u", "NO_COLOR", Paths.transitBinary, "trip", "T1", "--date", "2026-03-02", "--color", "always", "--db", demo])
        // CAFE's and LODZ's times were interpolated at import (data/lindenau leaves them empty).
        XCTAssertTrue(run.stdout.contains(escape + "2m~08:20:00" + escape + "0m"), run.stdout)
        XCTAssertFalse(run.stdout.contains(escape + "2m08:00:00"), "given times are not dim: \(run.stdout)")
    }
}
