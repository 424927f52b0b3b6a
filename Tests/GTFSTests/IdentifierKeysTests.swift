import XCTest
@testable import GTFS

/// `IdentifierKeys` stands in for a `[String: Int]` of trip ids: these pin that it gives the same
/// keys, in the order the ids were added, across its growth.
final class IdentifierKeysTests: XCTestCase {
    func testIdsGetConsecutiveKeysAndAreFoundAgainAfterTheTableGrows() {
        var keys = IdentifierKeys(firstKey: 1_001)
        let ids = (0..<5_000).map { "trip-\($0 * 7919 % 5_000)" } + ["", "ü", "a,b", String(repeating: "long", count: 40)]
        for (index, id) in ids.enumerated() { XCTAssertEqual(keys.add(id), 1_001 + index) }
        XCTAssertEqual(keys.count, ids.count)
        for (index, id) in ids.enumerated() { XCTAssertEqual(keys[id], 1_001 + index, id) }
        XCTAssertNil(keys["trip-5000"])
        XCTAssertNil(keys["trip-"])
    }

    func testAnIdAddedTwiceKeepsItsFirstKey() {
        var keys = IdentifierKeys(firstKey: 1)
        XCTAssertEqual(keys.add("T1"), 1)
        XCTAssertEqual(keys.add("T2"), 2)
        XCTAssertNil(keys.add("T1"))
        XCTAssertEqual(keys["T1"], 1)
        XCTAssertEqual(keys.add("T3"), 3)
    }

    func testIdsAreComparedByteForByteAsSQLiteDoes() {
        var keys = IdentifierKeys(firstKey: 1)
        // "é" precomposed and as "e" + a combining accent: equal as Swift strings, two ids in SQLite.
        XCTAssertEqual(keys.add("caf\u{E9}"), 1)
        XCTAssertEqual(keys.add("cafe\u{301}"), 2)
        XCTAssertEqual(keys["cafe\u{301}"], 2)
    }
}
