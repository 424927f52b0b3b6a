import ArgumentParser
import Foundation
import XCTest
@testable import TransitCommands

/// The direct reader of query command lines (`nearby`, `departures`, `trip`…) must give exactly the
/// command swift-argument-parser gives, or give up and leave the line to it. The options are taken
/// from the parser's own description of each command (`--experimental-dump-help`), so an option
/// added to a command and not to its direct reader fails here.
final class DirectCommandLineTests: XCTestCase {
    /// A value of the right type for each option the three commands declare.
    private let samples: [String: String] = [
        "radius": "300", "limit": "5", "input": "questions.csv", "format": "json", "color": "never",
        "feed": "vilnius", "db": "other.sqlite", "at": "2026-03-02 08:00", "within": "45", "max-age": "10",
        "stop": "HBF", "near": "52.5,13.3", "date": "2026-03-02", "type": "bus", "route": "R1", "trip": "T1",
        "lang": "de", "arrive-by": "2026-03-02 09:00", "max-rides": "2", "max-walk": "300", "walk-speed": "1.5",
        "max-access-walk": "800",
    ]

    /// A command line each command accepts, to which the option under test is added.
    private let bases: [String: [String]] = [
        "nearby": ["52.5249", "13.3692"], "search": ["gorli"], "departures": ["--near", "52.5,13.3"],
        "trip": ["T1"], "route": ["R1"], "routes": ["--stop", "HBF"], "stats": [], "alerts": [], "vehicles": [],
        "plan": ["HBF", "STR", "--at", "2026-03-02 08:00"], "reach": ["-16.92,145.77", "--at", "2026-03-02 08:00"],
    ]

    /// What the parser makes of `arguments`, as text (every option's value), or nil when it refuses.
    private func parsed(_ command: String, _ arguments: [String]) -> String? {
        let type = DirectCommandLine.commands[command]!
        guard let parsed = try? type.parseAsRoot(arguments) else { return nil }
        return String(describing: parsed)
    }

    /// What the direct reader makes of `arguments`, as text, or nil when it leaves them to the parser.
    private func direct(_ command: String, _ arguments: [String]) -> String? {
        DirectCommandLine.command(from: [command] + arguments).map { String(describing: $0) }
    }

    /// The options of `command` as the parser describes them: (long name, kind, parsing strategy, repeating).
    private func declaredOptions(of command: String) throws -> [(name: String, kind: String, strategy: String, repeating: Bool)] {
        let type = DirectCommandLine.commands[command]!
        let dump = try JSONSerialization.jsonObject(with: Data(type._dumpHelp().utf8)) as! [String: Any]
        let arguments = (dump["command"] as! [String: Any])["arguments"] as! [[String: Any]]
        return arguments.compactMap { argument in
            let names = argument["names"] as? [[String: String]] ?? []
            guard let long = names.first(where: { $0["kind"] == "long" })?["name"], long != "help", long != "version" else { return nil }
            return (long, argument["kind"] as! String, argument["parsingStrategy"] as! String, argument["isRepeating"] as! Bool)
        }
    }

    /// Every declared option, in each plain form, is read directly into the parser's very command.
    func testEveryOptionInEveryPlainFormReadsAsTheParserReadsIt() throws {
        XCTAssertEqual(Set(bases.keys), Set(DirectCommandLine.commands.keys), "a base command line for each command read directly")
        for (command, base) in bases {
            XCTAssertEqual(direct(command, base), parsed(command, base), "\(command) \(base)")
            XCTAssertNotNil(direct(command, base), "\(command) \(base) with defaults only")
            for option in try declaredOptions(of: command) {
                // Each form after the base, before it, and alone (some options exclude the base's;
                // an option the base already gives is tested alone: given twice, it is the parser's).
                let base = base.contains("--" + option.name) ? [] : base
                var lines: [[String]] = []
                if option.kind == "flag" {
                    lines += [base + ["--" + option.name], ["--" + option.name] + base, ["--" + option.name]]
                } else {
                    let sample = try XCTUnwrap(samples[option.name], "no sample value for --\(option.name) of \(command): add one")
                    lines += [base + ["--" + option.name, sample], ["--\(option.name)=\(sample)"] + base, ["--" + option.name, sample]]
                    if option.repeating { lines.append(base + ["--" + option.name, sample, "--" + option.name, sample + "x"]) }
                }
                for line in lines {
                    let expected = parsed(command, line)
                    XCTAssertEqual(direct(command, line), expected, "\(command) \(line.joined(separator: " "))")
                    // Lines the parser accepts must not need it (else the fast path is silently lost).
                    if expected != nil { XCTAssertNotNil(direct(command, line), "\(command) \(line) left to the parser") }
                }
            }
        }
    }

    /// Negative numbers: values of `.unconditional` options and nearby's point are read as the
    /// parser reads them (values, not options), and a bad one is the parser's to report.
    func testNegativeNumbersAreValuesWhereTheParserTakesThem() throws {
        let lines: [(String, [String])] = [
            ("nearby", ["-16.92", "145.77", "--radius", "300"]),
            ("nearby", ["-16.92,145.77"]),
            ("nearby", ["-16.92", "-145.77", "--limit", "-1"]),
            ("nearby", ["52.5", "13.3", "--radius", "-5"]),
            ("departures", ["--near", "-16.92,145.77", "--radius", "250"]),
            ("departures", ["--stop", "HBF", "--within", "-3"]),
            ("search", ["-5"]),
            ("search", ["gorli", "--limit", "-2"]),
        ]
        var readDirectly = 0
        for (command, line) in lines {
            let expected = parsed(command, line)
            XCTAssertEqual(direct(command, line), expected, "\(command) \(line.joined(separator: " "))")
            if direct(command, line) != nil { readDirectly += 1 }
        }
        XCTAssertEqual(readDirectly, 3, "the three valid southern-hemisphere questions are read directly")
    }

    /// `--` ends the options, as POSIX has it: the words after it are positional, negative or
    /// not, and both readers make the same command of them (the API puts `--` before a place
    /// that starts with a minus).
    func testDoubleDashEndsTheOptionsInBothReaders() throws {
        let lines: [(String, [String])] = [
            ("nearby", ["--", "-33.45", "-70.66"]),
            ("nearby", ["--radius", "300", "--format", "json", "--", "-33.45,-70.66"]),
            ("nearby", ["-33.45", "--", "-70.66"]),
            ("plan", ["--at", "2026-03-02 08:00", "--", "-33.45,-70.66", "-33.44,-70.65"]),
            ("reach", ["--at", "2026-03-02 08:00", "--format", "json", "--", "-0.001,179.999"]),
            ("search", ["--limit", "3", "--", "-5"]),
            ("trip", ["--", "-T1"]),
        ]
        for (command, line) in lines {
            let expected = parsed(command, line)
            XCTAssertNotNil(expected, "the parser takes \(command) \(line.joined(separator: " "))")
            XCTAssertEqual(direct(command, line), expected, "\(command) \(line.joined(separator: " "))")
        }
        let nearby = try XCTUnwrap(DirectCommandLine.command(from: ["nearby", "--", "-33.45", "-70.66"]) as? NearbyCommand)
        let point = try Coordinate(words: nearby.point)
        XCTAssertEqual([point.latitude, point.longitude], [-33.45, -70.66])
        // After `--`, an option's name is a word: here one too many for a point.
        XCTAssertThrowsError(try Coordinate(words: ["--", "-33.45", "-70.66", "--radius"]))
        XCTAssertNil(parsed("nearby", ["--", "-33.45", "-70.66", "--radius", "300"]))
    }

    /// Whatever is not a plain, valid line goes to the parser, which alone answers help and
    /// reports mistakes.
    func testAnythingElseIsLeftToTheParser() {
        let lines: [(String, [String])] = [
            ("nearby", ["--help"]), ("nearby", ["-h"]), ("nearby", ["--version"]),
            ("nearby", ["52.5", "13.3", "--radius", "300", "--radius", "400"]),
            ("nearby", ["52.5", "13.3", "--bogus"]), ("nearby", ["52.5", "--", "13.3", "--radius", "300"]),
            ("nearby", ["52.5", "13.3", "--format", "xml"]), ("nearby", ["52.5", "13.3", "--format"]),
            ("nearby", ["52.5", "13.3", "--explain=yes"]), ("nearby", ["52.5", "13.3", "--explain", "--explain"]),
            ("nearby", ["52.5"]), ("nearby", ["52.5", "13.3", "--input", "q.csv"]), ("nearby", ["52.5", "13.3", "--db", ""]),
            ("nearby", ["52.5", "13.3", "---completion"]), ("search", ["a", "b"]), ("search", []),
            ("search", ["--input", "-"]), ("search", ["gorli", "--feed", "no way"]),
            ("departures", []), ("departures", ["--stop", "HBF", "--near", "52.5,13.3"]),
            ("departures", ["--stop", "-x"]), ("departures", ["HBF"]), ("departures", ["--stop", "HBF", "--at", "tomorrow"]),
            ("trip", []), ("trip", ["T1", "T2"]), ("trip", ["-5"]), ("route", ["R1", "--format", "geojson", "--format", "json"]),
            ("stats", ["--format", "geojson"]), ("stats", ["x"]), ("routes", ["--type", "spaceship"]),
            ("vehicles", ["--radius", "300"]), ("alerts", ["--route", "R1", "--stop", "HBF"]),
        ]
        for (command, line) in lines {
            XCTAssertNil(direct(command, line), "\(command) \(line.joined(separator: " ")) read directly")
        }
        XCTAssertNil(DirectCommandLine.command(from: ["list", "stops"]), "other commands are always parsed")
        XCTAssertNil(DirectCommandLine.command(from: []))
    }
}
