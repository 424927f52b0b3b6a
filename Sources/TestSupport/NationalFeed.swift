// Built only where XCTest is (as AssertEqualSQL.swift): `make build` compiles this target too.
#if canImport(XCTest)
import Foundation
import XCTest

/// A country grown from one of `../shared/feeds`' real feeds by its `make-national-feed.py`:
/// `cities` copies of the feed on a grid, joined by intercity rail, so that journeys leave a city.
public enum NationalFeed {
    /// Writes the national feed of `cities` cities grown from `../shared/feeds/<source>` into
    /// `directory` and returns its path; nil (said on stdout, and a failure under `CI=true`) when
    /// that feed or the script is absent.
    public static func make(from source: String, cities: Int, in directory: TemporaryDirectory) throws -> String? {
        guard let feed = Paths.sharedFeed(source), let script = Paths.sharedFeed("make-national-feed.py") else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("../shared/feeds/\(source) is absent under CI=true") }
            print("../shared/feeds/\(source) is absent: skipped its national feed")
            return nil
        }
        let path = directory.file("national-\(cities)-\(source)")
        let made = try CommandRun.run("/usr/bin/env", ["python3", script, feed, String(cities), path])
        XCTAssertEqual(made.status, 0, made.stderr)
        return path
    }
}
#endif
