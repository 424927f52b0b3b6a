import XCTest
import Foundation
import PostgresStore
import TestSupport

/// The primary and hot standby scripts/with-postgres.sh starts for `make test` and CI
/// (`TRANSIT_TEST_POSTGRES`, `TRANSIT_TEST_POSTGRES_STANDBY`), emptied of feeds for each test.
struct PostgresServers {
    let primary: String
    let standby: String

    /// The servers, without feeds; the test is skipped where there are none (it fails under CI=true).
    init() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let primary = environment["TRANSIT_TEST_POSTGRES"], let standby = environment["TRANSIT_TEST_POSTGRES_STANDBY"] else {
            if environment["CI"] == "true" { XCTFail("TRANSIT_TEST_POSTGRES is not set under CI=true: run the tests through scripts/with-postgres.sh") }
            throw XCTSkip("no PostgreSQL servers (TRANSIT_TEST_POSTGRES, TRANSIT_TEST_POSTGRES_STANDBY; make test starts them): the PostgreSQL tests are skipped")
        }
        self.primary = primary
        self.standby = standby
        try PostgresConnection(url: primary).execute("DROP SCHEMA IF EXISTS transit CASCADE")
    }

    /// `transit import SOURCE --db DB EXTRA…`, which must succeed.
    func transitImport(_ source: String, _ extra: [String] = [], db: String) throws {
        let run = try CommandRun.transit(["import", source, "--db", db] + extra, timeout: 600)
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    /// Waits until the standby has replayed everything the primary has committed (its replay LSN
    /// passes the primary's current one).
    func waitForStandby() throws {
        let lsn = try XCTUnwrap(try PostgresConnection(url: primary).value("SELECT pg_current_wal_lsn()"))
        let replica = try PostgresConnection(url: standby)
        for _ in 0..<6000 {
            if try replica.value("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn", [lsn]) == "t" { return }
            usleep(10_000)
        }
        XCTFail("the standby did not replay \(lsn)")
    }

    /// The shared feed `name`, or a skip (a failure under CI=true) saying which test needed it.
    static func sharedFeed(_ name: String, for purpose: String) throws -> String {
        if let path = Paths.sharedFeed(name) { return path }
        if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("../shared/feeds/\(name) is absent under CI=true") }
        throw XCTSkip("../shared/feeds/\(name) is absent: \(purpose) is skipped")
    }
}
