import XCTest
@testable import GTFS

final class CSVReaderTests: XCTestCase {
    /// Parses `bytes` fed in chunks of `chunkSize`, returning the header and every record's fields.
    private func parse(_ bytes: [UInt8], chunkSize: Int = 1 << 20) throws -> (header: [String], rows: [[String]], lines: [Int]) {
        let reader = CSVReader(fileName: "test.txt")
        var rows: [[String]] = []
        var lines: [Int] = []
        let collect: (CSVRecord) throws -> Void = { record in
            rows.append((0..<record.count).map { record.string($0) ?? "<invalid>" })
            lines.append(record.line)
        }
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunkSize, bytes.count)
            try bytes[offset..<end].withUnsafeBytes { try reader.consume($0, collect) }
            offset = end
        }
        try reader.finish(collect)
        return (reader.header, rows, lines)
    }

    private func parse(_ text: String, chunkSize: Int = 1 << 20) throws -> (header: [String], rows: [[String]], lines: [Int]) {
        try parse(Array(text.utf8), chunkSize: chunkSize)
    }

    private func assertFeedError(_ text: String, line: Int?, contains fragment: String,
                                 file: StaticString = #filePath, lineNumber: UInt = #line) {
        XCTAssertThrowsError(try parse(text), file: file, line: lineNumber) { error in
            guard let feedError = error as? FeedError else { return XCTFail("not a FeedError: \(error)", file: file, line: lineNumber) }
            XCTAssertEqual(feedError.line, line, file: file, line: lineNumber)
            XCTAssertTrue(feedError.description.contains(fragment), "\(feedError)", file: file, line: lineNumber)
        }
    }

    func testStripsByteOrderMarkAndTrimsHeaderNames() throws {
        let result = try parse([0xEF, 0xBB, 0xBF] + Array(" stop_id , stop_name\nA,B\n".utf8))
        XCTAssertEqual(result.header, ["stop_id", "stop_name"])
        XCTAssertEqual(result.rows, [["A", "B"]])
    }

    func testAcceptsLFCRLFAndCROnlyLineEnds() throws {
        for separator in ["\n", "\r\n", "\r"] {
            let text = ["a,b", "1,2", "3,4"].joined(separator: separator) + separator
            let result = try parse(text)
            XCTAssertEqual(result.rows, [["1", "2"], ["3", "4"]], "separator \(separator.debugDescription)")
            XCTAssertEqual(result.lines, [2, 3])
        }
    }

    func testQuotedFieldsHoldCommasDoubledQuotesAndLineBreaks() throws {
        let result = try parse("a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\nnext,2,3\n")
        XCTAssertEqual(result.rows, [["x, y", "say \"hi\"", "two\nlines"], ["next", "2", "3"]])
        XCTAssertEqual(result.lines, [2, 4], "a line break inside quotes still counts as a line")
    }

    func testBlankLinesAreSkippedAndTheLastLineNeedsNoLineBreak() throws {
        let result = try parse("a,b\n\n1,2\n   \n3,4")
        XCTAssertEqual(result.rows, [["1", "2"], ["3", "4"]])
        XCTAssertEqual(result.lines, [3, 5])
    }

    func testEmptyTrailingFieldIsKept() throws {
        let result = try parse("a,b\n1,\n")
        XCTAssertEqual(result.rows, [["1", ""]])
    }

    func testExtraEmptyFieldsAreAcceptedButExtraValuesAreNot() throws {
        XCTAssertEqual(try parse("a,b\n1,2,,\n").rows, [["1", "2", "", ""]])
        assertFeedError("a,b\n1,2,3\n", line: 2, contains: "3 fields where the header has 2")
    }

    func testFewerFieldsThanTheHeaderIsAnError() {
        assertFeedError("a,b,c\n1,2,3\n1,2\n", line: 3, contains: "2 fields where the header has 3")
    }

    func testUnterminatedQuoteAtTheEndIsAnErrorWithTheLineItStarted() {
        assertFeedError("a,b\n1,2\n3,\"open\nstill open\n", line: 3, contains: "unterminated quote")
    }

    func testTextAfterAClosingQuoteIsAnError() {
        assertFeedError("a,b\n\"x\"y,2\n", line: 2, contains: "after the closing quote")
    }

    func testStrayQuoteInsideAnUnquotedFieldIsKeptAsText() throws {
        XCTAssertEqual(try parse("a,b\n12\" screen,2\n").rows, [["12\" screen", "2"]])
    }

    func testDuplicatedHeaderNamesAreAnError() {
        assertFeedError("stop_id,stop_id\n1,2\n", line: 1, contains: "names column 'stop_id' twice")
    }

    func testEmptyFileIsAnError() {
        assertFeedError("", line: nil, contains: "the file is empty")
        assertFeedError("\n\n", line: nil, contains: "the file is empty")
    }

    func testHeaderOnlyGivesNoRecords() throws {
        let result = try parse("a,b")
        XCTAssertEqual(result.header, ["a", "b"])
        XCTAssertTrue(result.rows.isEmpty)
    }

    func testChunkBoundariesAnywhereGiveTheSameRecords() throws {
        let text = "\u{FEFF}id,name,note\r\n1,\"Łódź, \"\"Fabryczna\"\"\",x\r\n2,Görlitz,\"multi\r\nline\"\r\n3,end,\r\n"
        let whole = try parse(text)
        for chunkSize in [1, 2, 3, 5, 7] {
            let chunked = try parse(text, chunkSize: chunkSize)
            XCTAssertEqual(chunked.header, whole.header, "chunk size \(chunkSize)")
            XCTAssertEqual(chunked.rows, whole.rows, "chunk size \(chunkSize)")
            XCTAssertEqual(chunked.lines, whole.lines, "chunk size \(chunkSize)")
        }
        XCTAssertEqual(whole.rows[0][1], "Łódź, \"Fabryczna\"")
    }

    func testInvalidUTF8AndNULBytesAreNotText() throws {
        let result = try parse(Array("a,b\n".utf8) + [0x4D, 0xFC, 0x6E, 0x2C, 0x78, 0x00, 0x79, 0x0A])
        XCTAssertEqual(result.rows, [["<invalid>", "<invalid>"]])
    }

    func testHugeFieldIsReadWhole() throws {
        let big = String(repeating: "x", count: 1 << 20)
        XCTAssertEqual(try parse("a,b\n\(big),1\n", chunkSize: 65536).rows.first?.first?.count, 1 << 20)
    }

    func testManyColumnsAreRead() throws {
        let header = (0..<10_000).map { "c\($0)" }.joined(separator: ",")
        let row = (0..<10_000).map { String($0) }.joined(separator: ",")
        let result = try parse(header + "\n" + row + "\n")
        XCTAssertEqual(result.header.count, 10_000)
        XCTAssertEqual(result.rows.first?.last, "9999")
    }
}
