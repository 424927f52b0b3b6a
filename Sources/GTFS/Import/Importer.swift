import FetchRequest
#if canImport(Glibc)
import Glibc

/// glibc's `malloc_trim` (declared in `malloc.h`, which the Glibc module leaves out).
@_silgen_name("malloc_trim")
private func malloc_trim(_ pad: Int) -> Int32
#endif

/// Adds a GTFS feed (a `.zip` or a folder) to a database of feeds, or replaces the feed of the same
/// name, all or nothing.
///
/// Rows are streamed from the feed into prepared `INSERT`s inside one transaction; memory grows
/// with the number of stops and trips, never with the number of stop times. The feed's own tables
/// (`stop_times_<feed>`, `service_days_<feed>`) are filled first and indexed after, in one sort
/// (or the index left to the server a file is made for: `defersFeedIndexes`).
///
/// Two ways to be atomic, chosen by what is at the database path:
/// - nothing (or a file that is not a transit database): the database is written to a temporary
///   file beside it, without a journal, and renamed over the target only on success;
/// - a transit database: the feed is added inside one write transaction of the database itself
///   (write-ahead log), so a failure, Ctrl-C or `kill -9` leaves exactly the feeds it held, and
///   queries running meanwhile read the old set of feeds or the new one.
public final class Importer {
    /// The files a feed must have (plus calendar.txt or calendar_dates.txt).
    public static let requiredFiles = ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"]

    let feedPath: String
    let databasePath: String
    /// The feed's name in the database.
    public let feedName: String
    /// What `feeds` records as the source, when it is not `feedPath` (the URL a file was downloaded from).
    public var recordedSource: String?
    /// The validators of the download the feed came from, recorded for the next import.
    public var downloadValidators: (etag: String?, lastModified: String?)?
    /// The encoding of every file when `--encoding` forces one; nil detects it per file (`TextDecoder`).
    public var encoding: TextEncoding?
    /// True for a file made only to be stored on a server (transit-postgres's scratch file): the
    /// feed's own indexes are recorded for the server to build (`DeferredIndexes`), not sorted here.
    public var defersFeedIndexes = false
    let openFeed: (String) throws -> FeedSource
    weak var progress: ImportProgress?

    var report = ImportReport()
    var database: Database!
    var feed: FeedSource!

    /// The feed's key (`feeds.id`); its rows' keys start above `FeedKeys.base(of: feedKey)`.
    var feedKey = 1
    var keyBase: Int { FeedKeys.base(of: feedKey) }
    var tables: FeedTables { FeedTables(feed: feedKey) }

    // Feed ids to database keys. Sized by stops, routes, services and trips, never by stop times.
    var agencyKeys: [String: Int] = [:]
    var agencyNames: [String] = []
    var stopKeys: [String: Int] = [:]
    var routeKeys: [String: Int] = [:]
    var serviceKeys: [String: Int] = [:]
    /// The trips' keys (`IdentifierKeys`: compact, as a national feed has millions of trips).
    var tripKeys = IdentifierKeys(firstKey: 1)
    /// Each trip's service key − feed base, by trip key − feed base − 1: copied into its stop times.
    var tripServices: [UInt32] = []
    var timeZone: AgencyTimeZone?
    var serviceDates: ClosedRange<ServiceDate>?

    var tripsWithMissingTimes: Set<Int> = []
    /// The trips' calls by pattern, gathered as stop_times.txt is loaded, for the journey
    /// planner's timetable (their times in a scratch file, 8 bytes a trip in memory).
    var plannerTrips: PlannerTripCollector?
    /// Each trip's largest stop_sequence (-1: no stop times) and the stop there (key − feed base),
    /// by trip key order.
    var tripEnds: (sequences: [Int], stops: [UInt32]) = ([], [])
    var largestTime = 0
    var hasFrequencies = false
    /// How many stop times have a `stop_headsign` (recorded as a feed fact, `FeedFacts`).
    var stopHeadsigns = 0

    /// An importer of the feed at `feedPath` into the database at `databasePath` under `feedName`
    /// (default: `FeedName.derived(fromSource:)` of the path); `openFeed` turns the path into a
    /// source (`openFeedOrZip(at:)` from GTFSZip reads zip archives too).
    public init(feedPath: String, databasePath: String, feedName: String? = nil, progress: ImportProgress? = nil,
                openFeed: @escaping (String) throws -> FeedSource = openFolderFeed(at:)) {
        self.feedPath = feedPath
        self.databasePath = databasePath
        self.feedName = feedName ?? FeedName.derived(fromSource: feedPath)
        self.progress = progress
        self.openFeed = openFeed
    }

    /// Runs the import. On failure the database holds exactly the feeds it held before, and the
    /// error says which file, line and field were wrong.
    public func run() throws -> ImportReport {
        let start = monotonicSeconds()
        guard FeedName.isValid(feedName) else { throw FeedError(file: feedPath, message: "cannot be named '\(feedName)': a feed name uses only \(FeedName.alphabet)") }
        report.feedName = feedName
        feed = try openFeed(feedPath)
        try checkRequiredFiles()
        switch try DatabaseFile.inspect(databasePath) {
        case .current:
            try addInPlace()
        case .olderSchema(let version, _) where SchemaUpgrade.canUpgrade(from: version):
            try phase("upgrade from schema \(version)") { try SchemaUpgrade.upgrade(databaseAt: databasePath) }
            report.note("\(databasePath): upgraded in place from schema \(version) to \(Schema.version)")
            try addInPlace()
        case .olderSchema(let version, let source) where FeedName.derived(fromSource: source) != feedName:
            throw TransitError.olderSchema(path: databasePath, found: version, source: source)
        case .missing, .notTransit, .olderSchema:
            try writeNewFile()
        case .newerSchema(let version):
            throw TransitError.schemaMismatch(path: databasePath, found: version, expected: Schema.version)
        }
        report.seconds = monotonicSeconds() - start
        return report
    }

    private func checkRequiredFiles() throws {
        for name in Importer.requiredFiles where !feed.contains(name) {
            throw FeedError(file: feedPath, message: "has no \(name): a GTFS feed needs \(Importer.requiredFiles.joined(separator: ", ")) and calendar.txt or calendar_dates.txt")
        }
        if !feed.contains("calendar.txt") && !feed.contains("calendar_dates.txt") {
            throw FeedError(file: feedPath, message: "has neither calendar.txt nor calendar_dates.txt: a GTFS feed needs at least one to say when trips run")
        }
    }

    /// A new database with this one feed: written to a temporary file without a journal, indexes
    /// built after the rows, then renamed over the target.
    private func writeNewFile() throws {
        let file = AtomicDatabaseFile(targetPath: databasePath)
        try file.begin()
        do {
            database = try Database(path: file.temporaryPath, mode: .readWrite)
            // The file is private until renamed, so no journal and no syncing while loading.
            try database.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; PRAGMA threads = 2")
            for table in Schema.sharedTables + Schema.feedTables(feedKey) { try database.execute(table.sql) }
            try database.inTransaction { try loadFeed() }
            progress?.step("building indexes")
            try database.inTransaction {
                for index in Schema.sharedIndexes {
                    try phase("index " + index.name) { try database.execute(index.sql) }
                }
                try buildFeedIndexes()
                // Fixed statistics, not ANALYZE: the same plans on a 10-stop feed as on a city's.
                try PlannerStatistics.write(in: database, feedKeys: [feedKey])
            }
            database.clearStatementCache()
            database = nil
            try phase("sync and rename") { try file.commit() }
        } catch {
            database = nil
            file.abandon()
            throw error
        }
    }

    /// Adds the feed to an existing database, replacing the feed of the same name, in one write
    /// transaction (`WriteTransaction`): the other feeds are not touched.
    private func addInPlace() throws {
        defer { database = nil }
        try WriteTransaction.run(path: databasePath, timed: { self.report.phases.append(($0, $1)) }) { database in
            self.database = database
            report.otherFeeds = try database.count(FetchRequest<Feed>().filter(Feed.column(Feed.columns.name) != feedName))
            if let existing = try FeedCatalog.key(ofFeedNamed: feedName, in: database) {
                report.replacedFeed = true
                try phase("remove the previous \(feedName)") { try FeedCatalog.removeRows(ofFeed: existing, from: database) }
            }
            feedKey = try FeedCatalog.nextFeedKey(in: database)
            for table in Schema.feedTables(feedKey) { try database.execute(table.sql) }
            try loadFeed()
            progress?.step("building indexes")
            try buildFeedIndexes()
            try PlannerStatistics.write(in: database, feedKeys: [feedKey])
        }
    }

    /// Builds the indexes of the feed's own tables, or records them (`defersFeedIndexes`).
    private func buildFeedIndexes() throws {
        for index in Schema.feedIndexes(feedKey) {
            if defersFeedIndexes {
                try DeferredIndexes.record(index, in: database)
            } else {
                try phase("index " + index.name) { try database.execute(index.sql) }
            }
        }
    }

    /// Loads every file of the feed and records it in `feeds`.
    private func loadFeed() throws {
        try phase("agency.txt", loadAgencies)
        try phase("stops.txt", loadStops)
        try phase("routes.txt", loadRoutes)
        try phase("calendars", loadCalendars)
        try phase("trips.txt", loadTrips)
        try phase("stop_times.txt", loadStopTimes)
        try phase("interpolation", interpolateMissingTimes)
        try phase("trip ends", writeTripEnds)
        if feed.contains("directions.txt") { try phase("directions.txt", loadDirections) }
        if feed.contains("frequencies.txt") { try phase("frequencies.txt", loadFrequencies) }
        if feed.contains("shapes.txt") { try phase("shapes.txt", loadShapes) }
        if feed.contains("feed_info.txt") { try phase("feed_info.txt", loadFeedInfo) }
        if feed.contains("transfers.txt") { try phase("transfers.txt", loadTransfers) }
        try phase("journey planner timetable", writePlannerTimetable)
        try writeFeedRecord()
    }

    /// Runs one step of the import and records how long it took.
    private func phase(_ name: String, _ body: () throws -> Void) throws {
        try Interrupted.check()
        let start = monotonicSeconds()
        try body()
        releaseFreedMemory()
        report.phases.append((name, monotonicSeconds() - start))
    }

    /// Gives the memory a step freed back to the system. glibc keeps freed blocks in the process
    /// for reuse, resident, so the next step's peak would stack on this one's leftovers (the stop
    /// name index's tens of MB under the stop times' state): a national feed peaked 50 MB higher.
    private func releaseFreedMemory() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }

    /// Reads `name` record by record, with its columns resolved by `columns`.
    func readFile(_ name: String, _ body: (FieldReader) throws -> Void) throws -> FeedTable {
        let reader = CSVReader(fileName: name)
        let decoder = TextDecoder(file: name, forced: encoding)
        var table: FeedTable?
        var rows = 0
        var lastReport = monotonicSeconds()
        func deliver(_ record: CSVRecord) throws {
            if table == nil { table = FeedTable(file: name, header: reader.header, decoder: decoder) }
            if Database.receivedSignal != 0 { throw Interrupted(signal: Database.receivedSignal) }
            try body(FieldReader(table: table!, record: record))
            rows += 1
            if rows & 0x3FFF == 0, let progress {
                let now = monotonicSeconds()
                if now - lastReport > 0.25 {
                    lastReport = now
                    progress.update(file: name, rows: rows)
                }
            }
        }
        try feed.read(name) { chunk in try decoder.decode(chunk) { try reader.consume($0, deliver) } }
        try decoder.finish { try reader.consume($0, deliver) }
        try reader.finish(deliver)
        progress?.update(file: name, rows: rows)
        if decoder.detectedWindows1252 { report.note("\(name): not UTF-8, read as Windows-1252; --encoding chooses another") }
        return table ?? FeedTable(file: name, header: reader.header, decoder: decoder)
    }

    /// Reads only the header of `name` (the first chunk is enough unless the header is huge).
    func readHeader(_ name: String, _ body: (FeedTable) throws -> Void) throws {
        let reader = CSVReader(fileName: name)
        let decoder = TextDecoder(file: name, forced: encoding)
        struct HeaderRead: Error {}
        do {
            try feed.read(name) { chunk in
                try decoder.decode(chunk) { try reader.consume($0) { _ in throw HeaderRead() } }
                if !reader.header.isEmpty { throw HeaderRead() }
            }
            try decoder.finish { try reader.consume($0) { _ in throw HeaderRead() } }
            try reader.finish { _ in }
        } catch is HeaderRead {}
        try body(FeedTable(file: name, header: reader.header, decoder: decoder))
    }

    /// Reads `name` after checking its header has `required` columns (even when it has no rows).
    func readFile(_ name: String, requiring required: [String], _ body: (FieldReader, [Int]) throws -> Void) throws {
        var positions: [Int]?
        let table = try readFile(name) { fields in
            if positions == nil { positions = try required.map { try fields.table.required($0) } }
            try body(fields, positions!)
        }
        if positions == nil { _ = try required.map { try table.required($0) } }
    }

    func count(_ table: String, _ rows: Int) {
        report.rowCounts.append((table, rows))
    }
}
