import XCTest
import GTFSRealtime
import SwiftProtobuf
import TestSupport

/// Reads a GTFS-Realtime message of `entities` (header timestamp `timestamp`, POSIX seconds) into
/// the database at `db` with `transit realtime`, writing it in `directory` first; asserts it was
/// read.
func readRealtime(_ entities: [TransitRealtime_FeedEntity], timestamp: UInt64, into db: String, in directory: TemporaryDirectory,
                  file: StaticString = #filePath, line: UInt = #line) throws {
    let message = TransitRealtime_FeedMessage.with { message in
        message.header = .with { $0.gtfsRealtimeVersion = "2.0"; $0.timestamp = timestamp }
        message.entity = entities
    }
    let path = try directory.write("message.pb", bytes: try message.serializedBytes())
    let read = try CommandRun.transit(["realtime", path, "--db", db])
    XCTAssertEqual(read.status, 0, read.stderr, file: file, line: line)
}
