import XCTest
@testable import GTFS

/// Numbers as every format writes them: at most N decimals, no trailing zeros, no "-0".
final class NumberFormattingTests: XCTestCase {
    func testDecimalsAreRoundedAndTrailingZerosDropped() {
        XCTAssertEqual(formatDecimal(12.5, decimals: 2), "12.5")
        XCTAssertEqual(formatDecimal(3, decimals: 2), "3")
        XCTAssertEqual(formatDecimal(-0.25, decimals: 2), "-0.25")
        XCTAssertEqual(formatDecimal(1906.7649, decimals: 2), "1906.76")
        XCTAssertEqual(formatDecimal(54.6872349, decimals: 7), "54.6872349")
        XCTAssertEqual(formatDecimal(-73.98, decimals: 7), "-73.98")
        XCTAssertEqual(formatDecimal(0.05, decimals: 1), "0.1", "halves round away from zero")
        XCTAssertEqual(formatDecimal(0.0000001, decimals: 7), "0.0000001", "leading zeros of the fraction kept")
        XCTAssertEqual(formatDecimal(-0.00004, decimals: 4), "0", "no negative zero")
        XCTAssertEqual(formatDecimal(0, decimals: 3), "0")
        XCTAssertEqual(formatDecimal(100, decimals: 0), "100")
        XCTAssertEqual(formatDecimal(99.96, decimals: 1), "100", "rounding carries into the whole part")
        XCTAssertEqual(formatDecimal(180, decimals: 7), "180")
    }
}
