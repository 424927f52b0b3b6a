// `make build` compiles every target, this one too, where XCTest is not to be had: the helpers
// exist where tests are built.
#if canImport(XCTest)
import FetchRequest
import XCTest

/// Asserts that `request` is exactly the SQL `sql` (placeholders `?`): a query's SQL pinned beside
/// its plan, so a change to the generator or to a query shows in the test as the SQL it makes
/// (as GRDB's `assertEqualSQL`).
public func assertEqualSQL(_ request: PreparedRequest, _ sql: String, _ message: @autoclosure () -> String = "",
                           file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(request.sql, sql, message(), file: file, line: line)
}

/// Asserts that `query`, prepared, is exactly the SQL `sql`.
public func assertEqualSQL(_ query: Query, _ sql: String, _ message: @autoclosure () -> String = "",
                           file: StaticString = #filePath, line: UInt = #line) {
    assertEqualSQL(SQLGenerator.prepare(query), sql, message(), file: file, line: line)
}

/// Asserts that the statement `statement` (SQL text a writer or an explain made) is exactly `sql`.
public func assertEqualSQL(_ statement: String, _ sql: String, _ message: @autoclosure () -> String = "",
                           file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(statement, sql, message(), file: file, line: line)
}
#endif
