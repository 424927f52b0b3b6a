import XCTest
import GTFS

final class FeedNameTests: XCTestCase {
    func testNamesAreDerivedFromTheFileOrFolderName() {
        XCTAssertEqual(FeedName.derived(fromSource: "Caltrain 2017.zip"), "caltrain-2017")
        XCTAssertEqual(FeedName.derived(fromSource: "../shared/feeds/vilnius.zip"), "vilnius")
        XCTAssertEqual(FeedName.derived(fromSource: "data/lindenau/"), "lindenau")
        XCTAssertEqual(FeedName.derived(fromSource: "/feeds/Łódź_MPK.v2.zip"), "--d-_mpk-v2")
        XCTAssertEqual(FeedName.derived(fromSource: "https://example.org/gtfs/google_transit.zip?key=abc"), "google_transit")
        XCTAssertEqual(FeedName.derived(fromSource: ".zip"), "-zip")
        XCTAssertEqual(FeedName.derived(fromSource: "/"), "feed")
    }

    func testOnlyTheAlphabetIsValid() {
        for name in ["vilnius", "caltrain-2017", "a_b", "0"] { XCTAssertTrue(FeedName.isValid(name), name) }
        for name in ["", "Vilnius", "a b", "a:b", "ü", "a/b", "a.b"] { XCTAssertFalse(FeedName.isValid(name), name) }
    }

    func testKeysTellTheirFeed() {
        XCTAssertEqual(FeedKeys.feed(of: FeedKeys.base(of: 3) + 1), 3)
        XCTAssertEqual(FeedKeys.range(of: 2).upperBound + 1, FeedKeys.base(of: 3))
        XCTAssertTrue(FeedKeys.range(of: 1).contains(FeedKeys.base(of: 1) + 4_000_000_000))
    }
}

final class NaturalOrderTests: XCTestCase {
    func testDigitsCompareAsNumbers() {
        let names = ["N10", "10", "2", "", "N2", "02", "1a", "1", "B"]
        XCTAssertEqual(names.sorted(by: NaturalOrder.precedes), ["", "1", "1a", "2", "02", "10", "B", "N2", "N10"])
    }

    func testExtendedRouteTypesHaveTheirKindsName() {
        XCTAssertEqual(RouteType.name(of: 3), "bus")
        XCTAssertEqual(RouteType.name(of: 702), "bus")
        XCTAssertEqual(RouteType.name(of: 109), "rail")
        XCTAssertEqual(RouteType.name(of: 900), "tram")
        XCTAssertEqual(RouteType.name(of: 1200), "ferry")
        XCTAssertEqual(RouteType.name(of: 1700), "other (1700)")
        XCTAssertTrue(RouteType.matches(715, filter: "Bus"))
        XCTAssertFalse(RouteType.matches(715, filter: "3"))
    }
}
