import Foundation
import TestSupport
import XCTest
@testable import TransitServer

/// An answer's entity tag names the database file's state and the request; a client that sends
/// it back in If-None-Match is told 304 Not Modified, with no question asked again.
final class EntityTagTests: XCTestCase {
    private let server = ResponderHarness.demo

    func testAnAnswersTagInIfNoneMatchIsA304WithTheSameTagAndNoBody() throws {
        let first = server.answer("/api/feeds")
        XCTAssertEqual(first.status, .ok)
        let tag = try XCTUnwrap(first.header("ETag"))
        XCTAssertNotNil(tag.wholeMatch(of: /"[0-9a-f]{16}"/), tag)
        for header in [tag, "W/" + tag, "\"0000000000000000\", " + tag, " *"] {
            let again = server.answer("/api/feeds", headers: [("If-None-Match", header)])
            XCTAssertEqual(again.status, .notModified, header)
            XCTAssertEqual(again.header("ETag"), tag, header)
            XCTAssertEqual(again.header("Cache-Control"), "no-cache", header)
            XCTAssertEqual(again.body.readableBytes, 0, header)
        }
        XCTAssertEqual(server.answer("/api/feeds", headers: [("If-None-Match", "\"0000000000000000\"")]).status, .ok)
    }

    func testTheTagFollowsTheRequestAndTheSameRequestKeepsIt() throws {
        let feeds = try XCTUnwrap(server.answer("/api/feeds").header("ETag"))
        XCTAssertEqual(server.answer("/api/feeds").header("ETag"), feeds)
        XCTAssertNotEqual(server.answer("/api/feeds?format=csv").header("ETag"), feeds)
        XCTAssertNotEqual(server.answer("/api/routes").header("ETag"), feeds)
        // Mistakes are not tagged: they are not cached.
        XCTAssertNil(server.answer("/api/feeds?format=xml").header("ETag"))
    }

    func testAChangedDatabaseFileChangesTheTagAndTheOldOneIsAnsweredAgain() throws {
        let folder = TemporaryDirectory()
        let server = try ResponderHarness.importing(FeedFixture(), into: folder)
        let before = try XCTUnwrap(server.answer("/api/feeds").header("ETag"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: server.database)
        let after = server.answer("/api/feeds", headers: [("If-None-Match", before)])
        XCTAssertEqual(after.status, .ok)
        XCTAssertNotEqual(after.header("ETag"), before)
    }

    func testAGzippedAnswerHasTheTagOfItsEncodingAndRevalidatesWithIt() throws {
        let plain = server.answer("/api/list/stops")
        let tag = try XCTUnwrap(plain.header("ETag"))
        XCTAssertGreaterThanOrEqual(plain.body.readableBytes, Gzip.threshold)
        let zipped = server.answer("/api/list/stops", headers: [("Accept-Encoding", "br, gzip;q=0.8")])
        XCTAssertEqual(zipped.header("Content-Encoding"), "gzip")
        XCTAssertEqual(zipped.header("ETag"), Gzip.tag(tag))
        XCTAssertEqual(zipped.header("Content-Length"), String(zipped.body.readableBytes))
        XCTAssertLessThan(zipped.body.readableBytes, plain.body.readableBytes)
        XCTAssertEqual(server.answer("/api/list/stops", headers: [("If-None-Match", Gzip.tag(tag))]).status, .notModified)
        XCTAssertNil(server.answer("/api/list/stops", headers: [("Accept-Encoding", "gzip;q=0")]).header("Content-Encoding"))
    }

    func testPagesAreTaggedWithTheBinarysFilesAndRevalidate() throws {
        let page = server.answer("/static/app.css")
        let tag = "\"" + EmbeddedFiles.versionTag + "\""
        XCTAssertEqual(page.header("ETag"), tag)
        let again = server.answer("/static/app.css", headers: [("If-None-Match", tag)])
        XCTAssertEqual(again.status, .notModified)
        XCTAssertEqual(again.header("Content-Security-Policy"), page.header("Content-Security-Policy"))
    }

    func testARealtimeServerLetsAnswersBeCachedForItsRefreshInterval() throws {
        var settings = ServerSettings(quiet: true)
        settings.cacheControl = "max-age=30"
        let answer = server.answer("/api/feeds", settings: settings)
        XCTAssertEqual(answer.header("Cache-Control"), "max-age=30")
        let tag = try XCTUnwrap(answer.header("ETag"))
        XCTAssertEqual(server.answer("/api/feeds", headers: [("If-None-Match", tag)], settings: settings).header("Cache-Control"), "max-age=30")
    }
}
