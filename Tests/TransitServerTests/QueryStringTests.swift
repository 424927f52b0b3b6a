import XCTest
@testable import TransitServer

/// A query string is read as browsers' forms and `URLSearchParams` write it.
final class QueryStringTests: XCTestCase {
    private func pairs(_ query: String) throws -> [String] {
        try XCTUnwrap(QueryString(query), query).pairs.map { "\($0.name)=\($0.value)" }
    }

    func testPercentEscapesAreBytesOfUTF8AndPlusIsASpace() throws {
        XCTAssertEqual(try pairs("text=u+gorli&name=K%C3%B6ln%2FDeutz&sign=a%2Bb"), ["text=u gorli", "name=Köln/Deutz", "sign=a+b"])
        // Escapes in either case, in names as in values.
        XCTAssertEqual(try pairs("max%5frides=%4a%4A"), ["max_rides=JJ"])
    }

    func testRepeatedNamesKeepEveryValueInOrderAndTheFirstIsTheValue() throws {
        let query = try XCTUnwrap(QueryString("feed=a&limit=3&feed=b"))
        XCTAssertEqual(query.pairs.filter { $0.name == "feed" }.map(\.value), ["a", "b"])
        XCTAssertEqual(query["feed"], "a")
        XCTAssertNil(query["radius"])
    }

    func testANameWithoutEqualsHasAnEmptyValueAndEmptyPartsAreSkipped() throws {
        XCTAssertEqual(try pairs("platforms&&limit=&=x&"), ["platforms=", "limit=", "=x"])
        XCTAssertEqual(try pairs("where=a=b"), ["where=a=b"], "only the first = separates")
        XCTAssertEqual(QueryString(nil)?.pairs.count, 0)
        XCTAssertEqual(QueryString("")?.pairs.count, 0)
    }

    func testMalformedEscapesAndTextThatIsNotUTF8AreRefused() {
        for bad in ["lat=%zz", "lat=5%", "lat=%4", "te%xt=a", "name=%FF", "name=%C3"] {
            XCTAssertNil(QueryString(bad), bad)
        }
    }

    func testAPathSegmentKeepsItsPlusSigns() {
        XCTAssertEqual(QueryString.decodePathSegment("S+1%20a"), "S+1 a")
        XCTAssertNil(QueryString.decodePathSegment("T%G1"))
    }

    func testAQueryStringThatIsNotURLEncodingIsA400NamingNoParameter() throws {
        let response = ResponderHarness.demo.answer("/api/nearby?lat=52%zz&lon=13.4")
        XCTAssertEqual(response.status, .badRequest)
        XCTAssertEqual(response.text, "{\"error\": \"the query string is not valid URL encoding (UTF-8, %XX escapes)\", \"parameter\": null}\n")
        let path = ResponderHarness.demo.answer("/api/trip/T%G1")
        XCTAssertEqual(path.status, .badRequest)
        XCTAssertEqual(path.text, "{\"error\": \"the path is not valid URL encoding\", \"parameter\": \"id\"}\n")
    }
}
