import XCTest
import FetchRequest
import TestSupport
@testable import GTFS

/// The database's own bookkeeping read and written through its declarations: the catalog records
/// (`MetadataEntry`, `PlannerStatistic`, `SchemaObject`) and the model's scopes, by which a
/// removed feed's rows are found.
final class CatalogRecordTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() { directory = TemporaryDirectory() }
    override func tearDown() { directory = nil }

    /// Imports the fixture feed as `name` into `db.sqlite`, with a row in every optional file.
    private func importFeed(named name: String) throws {
        let feed = try FeedFixture()
            .with("calendar_dates.txt", "service_id,date,exception_type\nWD,20260105,2\n")
            .with("frequencies.txt", "trip_id,start_time,end_time,headway_secs\nT,08:00:00,10:00:00,600\n")
            .with("directions.txt", "route_id,direction_id,direction\nR,0,Outbound\n")
            .with("feed_info.txt", "feed_publisher_name,feed_publisher_url,feed_lang\nPublisher,https://example.org,en\n")
            .write(to: directory, as: name)
        _ = try Importer(feedPath: feed, databasePath: directory.file("db.sqlite")).run()
    }

    func testAMetadataTableOfAnotherLayoutIsNoTransitDatabase() throws {
        // MBTiles files have `metadata (name, value)`.
        let path = directory.file("tiles.sqlite")
        try Database(path: path, mode: .readWrite).execute("CREATE TABLE metadata (name TEXT, value TEXT); INSERT INTO metadata VALUES ('format', 'png')")
        XCTAssertEqual(try DatabaseFile.inspect(path), .notTransit)
        XCTAssertThrowsError(try TransitDatabase(path: path)) { error in
            guard case .notATransitDatabase = error as? TransitError else { return XCTFail("\(error)") }
        }
    }

    func testAMetadataEntryIsReplacedByKey() throws {
        try importFeed(named: "feed")
        let database = try Database(path: directory.file("db.sqlite"), mode: .readWrite)
        XCTAssertEqual(try MetadataEntry.value(of: .schemaVersion, in: database), String(Schema.version))
        XCTAssertEqual(try MetadataEntry.value(of: .lastFeedKey, in: database), "1")
        try MetadataEntry.set("7", for: .lastFeedKey, in: database)
        XCTAssertEqual(try database.fetch(FetchRequest<MetadataEntry>().filter(MetadataEntry.column(.key) == MetadataEntry.Key.lastFeedKey.rawValue)).map(\.value),
                       ["7"], "one entry per key")
        XCTAssertEqual(try FeedCatalog.nextFeedKey(in: database), 8)
    }

    func testANewDatabaseHasThePlannerStatisticsOfTheSchemasIndexes() throws {
        try importFeed(named: "feed")
        let database = try Database(path: directory.file("db.sqlite"), mode: .readOnly)
        XCTAssertEqual(try PlannerStatistics.present(in: database), PlannerStatistics.expected(feedKeys: [1]))
        let indexes = try SchemaObject.indexNames(in: database)
        for statistic in PlannerStatistics.rows(feedKeys: [1]) {
            if let index = statistic.index, index != statistic.table {
                XCTAssertTrue(indexes.contains(index), "\(index) is described but not created")
            }
        }
    }

    func testRemovingAFeedEmptiesEveryEntityOfItsRowsAndLeavesTheOthers() throws {
        try importFeed(named: "first")
        try importFeed(named: "second")
        let path = directory.file("db.sqlite")
        /// The rows of each entity the model scopes to the feed keyed `key` (its own tables are dropped whole).
        func rows(ofFeed key: Int) throws -> [String: Int] {
            let database = try Database(path: path, mode: .readOnly)
            var counts: [String: Int] = [:]
            for entity in TransitModel.model(forFeedKey: key).entities.values where entity.scope != nil {
                guard let fetch = ModelFetch(entity: entity.name, in: TransitModel.model(forFeedKey: key)) else { continue }
                do {
                    counts[entity.name] = try database.count(try fetch.query())
                } catch let error as DatabaseError where error.isMissingTable {
                    // A realtime table: none before realtime data is read.
                }
            }
            return counts
        }
        let (first, second) = (try rows(ofFeed: 1), try rows(ofFeed: 2))
        XCTAssertEqual(first.filter { $0.value == 0 }, [:], "every entity has rows of the feed to remove")
        XCTAssertEqual(first.count, TransitModel.entityNames.count - 3, "every timetable entity but the feed's own tables")
        try FeedCatalog.remove(feedNamed: "first", fromDatabaseAt: path)
        let emptied = try rows(ofFeed: 1)
        XCTAssertEqual(emptied.filter { $0.value != 0 }, [:], "rows of the removed feed are left")
        XCTAssertEqual(Set(emptied.keys), Set(first.keys))
        XCTAssertEqual(try rows(ofFeed: 2), second, "the other feed keeps every row")
    }
}
