import FetchRequest

/// A database written by `transit import`, opened read-only for queries: its feeds, the ones a
/// query is restricted to, and the lookups every command shares (a feed by key, a stop by id).
///
/// Opening checks that the file exists, is SQLite, and has this version's schema, so every query
/// command fails early with a message that says what to run, never with an SQL error.
public final class TransitDatabase {
    /// The connection (read-only: queries never change the file).
    public let database: Database
    /// Every feed of the database, by name.
    public let feeds: [Feed]
    /// The feeds queries answer from: all of them, unless `restrict(toFeedsNamed:)` chose some.
    public private(set) var selectedFeeds: [Feed]
    private let feedsByKey: [Int: Feed]
    /// The journey planners made on this connection, by the keys of the feeds selected then
    /// (`journeyPlanner()`).
    private var planners: [[Int]: JourneyPlanner] = [:]

    /// Opens the database at `path`.
    public init(path: String) throws {
        let onServer = StoreLocation.isPostgres(path)
        guard onServer || FileSystem.kind(of: path) == .file else { throw TransitError.noDatabase(path: path) }
        do {
            database = try Database(path: path, mode: .readOnly)
            // Predicates' [c], [d] and [cd] fold text with it (`fetch_fold`).
            try database.register(folding: TransitModel.folding)
            // One read transaction for the whole command: every request sees the same set of
            // feeds, the one before or the one after an import that commits meanwhile, never a mix.
            try database.execute("BEGIN")
        } catch let error as DatabaseError {
            throw TransitError.notATransitDatabase(path: path, reason: error.message)
        }
        let kind: DatabaseFile
        do {
            kind = try DatabaseFile.inspect(database)
        } catch let error as DatabaseError where error.isBusy {
            throw TransitError.busy(path: path)
        } catch let error as DatabaseError where error.isUnfinishedChange {
            throw TransitError.unfinishedChange(path: path)
        } catch let error as DatabaseError {
            throw TransitError.notATransitDatabase(path: path, reason: error.message)
        }
        switch kind {
        case .missing: throw TransitError.noDatabase(path: path)
        case .notTransit where onServer: throw TransitError.noFeedsOnServer(location: database.path)
        case .current: break
        case let .olderSchema(version, source): throw TransitError.olderSchema(path: path, found: version, source: source)
        case .newerSchema(let version): throw TransitError.schemaMismatch(path: path, found: version, expected: Schema.version)
        case .notTransit:
            // Say why: not SQLite at all, or SQLite without transit's tables.
            do {
                _ = try database.fetch(FetchRequest<MetadataEntry>().limited(to: 1))
            } catch let error as DatabaseError {
                throw TransitError.notATransitDatabase(path: path, reason: error.message)
            }
            throw TransitError.notATransitDatabase(path: path, reason: "it has no schema version")
        }
        feeds = try database.fetch(Feed.byName)
        selectedFeeds = feeds
        feedsByKey = Dictionary(uniqueKeysWithValues: feeds.map { ($0.key, $0) })
    }

    /// The journey planner of the selected feeds: made on the first journey question, then the
    /// same one for every later question on this connection, so the patterns and walks a search
    /// reads stay read. A long-lived host (`transit-serve`, whose connections each answer one
    /// question after another) thus plans as fast as a batch run does, instead of opening a
    /// planner and reading its patterns again for each request. What it keeps grows with the
    /// patterns asked (at most the planner's whole timetable) and the dates asked; a host opens
    /// the connection anew when the file changes (an import, a realtime refresh), and a new
    /// planner with it.
    public func journeyPlanner() throws -> JourneyPlanner {
        let key = selectedFeeds.map(\.key)
        if let known = planners[key] { return known }
        let made = try JourneyPlanner(transit: self)
        planners[key] = made
        return made
    }

    /// Prepares the connection for many questions in one process (a batch run): the file is read
    /// through a memory map rather than copied page by page into SQLite's small cache, which on a
    /// large feed took a third of a departures batch in the kernel. Single questions skip it: the
    /// map costs more than it saves for a handful of pages.
    public func prepareForManyQueries() throws {
        try database.execute("PRAGMA mmap_size = 4294967296")
    }

    /// Restricts every later query to the feeds named `names` (all feeds when empty); an unknown
    /// name throws `TransitError.unknownFeed` with the names there are.
    public func restrict(toFeedsNamed names: [String]) throws {
        guard !names.isEmpty else { return }
        for name in names where !feeds.contains(where: { $0.name == name }) {
            throw TransitError.unknownFeed(name: name, known: feeds.map(\.name))
        }
        selectedFeeds = feeds.filter { names.contains($0.name) }
    }

    /// Readies the connection for the next question of a long-lived host (`transit-serve`): every
    /// feed is selected again, and a read transaction begins, so the question sees what was
    /// committed last (stored realtime data) and one state throughout. Returns false when the
    /// store changed since the last question (another connection committed: a feed added in
    /// place, realtime data stored), so the feeds this connection knows may be out of date and
    /// the host opens it again; and on the first call. The realtime facts read for the last
    /// question (`realtimeFeeds`) are kept only while the store is unchanged: on a server, that
    /// spares a round trip a question.
    @discardableResult
    public func startNextQuestion() throws -> Bool {
        selectedFeeds = feeds
        try database.runKept("BEGIN")
        let version = try database.dataVersion()
        defer { lastDataVersion = version }
        guard version == lastDataVersion else {
            realtimeCache = nil
            return false
        }
        return true
    }
    /// The store's `dataVersion` when the last question started (nil: none yet).
    private var lastDataVersion: Int64?

    /// Ends the read transaction of a question (the one opening began, or `startNextQuestion`'s):
    /// between questions a long-lived host holds no snapshot, so an import can take the file.
    public func finishQuestion() throws {
        try database.runKept("COMMIT")
    }

    /// True when queries answer from a subset of the feeds (then requests say which).
    public var isRestricted: Bool { selectedFeeds.count != feeds.count }

    /// The feed whose block `key` (a key of any table) lies in.
    public func feed(ofKey key: Int) -> Feed? { feedsByKey[FeedKeys.feed(of: key)] }

    /// The stored realtime data of each feed that has some (by feed key): the timestamp freshness
    /// is judged by, and the range of its delays. Empty when no realtime data was ever read.
    /// Per feed, the `realtime_feeds` entity of its model (a primary-key search):
    ///
    ///     SELECT "realtime_feeds"."timestamp", "realtime_feeds"."latest_delay", "realtime_feeds"."earliest_delay",
    ///       "realtime_feeds"."added_departures" FROM "realtime_feeds" WHERE "realtime_feeds"."feed" = ?
    public func realtimeFeeds() throws -> [Int: (timestamp: Int?, window: RealtimeWindow)] {
        if let cached = realtimeCache { return cached }
        var found: [Int: (timestamp: Int?, window: RealtimeWindow)] = [:]
        do {
            // One fetch per feed: an entity of a feed's model holds that feed's rows only. Its
            // names are qualified, so a column an older table lacks fails rather than reading as a string.
            for feed in feeds {
                var fetch = TransitModel.fetch("realtime_feeds", feedKey: feed.key, inNaturalOrder: true)
                fetch.breaksTiesByNaturalOrder = false
                let query = try fetch.query(selecting: ["timestamp", "latest_delay", "earliest_delay", "added_departures"]).query
                try database.forEachRow(SQLGenerator.prepare(query)) {
                    found[feed.key] = ($0.optionalInt("timestamp"), RealtimeWindow(latestDelay: $0.int("latest_delay"), earliestDelay: $0.int("earliest_delay"),
                                                                                  hasAddedDepartures: $0.int("added_departures") > 0))
                }
            }
        } catch let error as DatabaseError where error.isMissingTable || error.isMissingColumn {
            // No realtime data was ever read into this database, or only by a development build
            // whose tables the next `transit realtime` replaces.
            found = [:]
        }
        realtimeCache = found
        return found
    }
    private var realtimeCache: [Int: (timestamp: Int?, window: RealtimeWindow)]?

    /// False when the import of `feed` found no stop time with a `stop_headsign` (`FeedFacts`);
    /// true when it found some, or did not count them (a file written before it did). Read once
    /// per feed.
    func hasStopHeadsigns(_ feed: Feed) throws -> Bool {
        if let known = stopHeadsignCache[feed.key] { return known }
        let known = try FeedFacts.stopHeadsigns(ofFeed: feed.key, in: database).map { $0 > 0 } ?? true
        stopHeadsignCache[feed.key] = known
        return known
    }
    private var stopHeadsignCache: [Int: Bool] = [:]

    /// The feed called `name`, if the database has it.
    public func feed(named name: String) -> Feed? { feeds.first { $0.name == name } }

    /// The feed name of `key`'s feed ("" if none: cannot happen for keys read from the database).
    public func feedName(ofKey key: Int) -> String { feed(ofKey: key)?.name ?? "" }

    /// The stop an id argument names: `FEED:ID`, or a bare `ID` that exactly one of the selected
    /// feeds has. A bare id several feeds have throws `TransitError.ambiguousStop` listing each as
    /// `FEED:ID (name)`; stop ids may contain `:` themselves, so `FEED:` counts only when FEED is
    /// the name of a feed and that feed has the rest as a stop id.
    public func stop(named argument: String) throws -> Stop {
        if let colon = argument.firstIndex(of: ":"),
           let feed = feeds.first(where: { $0.name == argument[..<colon] }) {
            let id = String(argument[argument.index(after: colon)...])
            let request = FetchRequest<Stop>().filter(Stop.column(Stop.columns.stopID) == id && Stop.column(Stop.columns.feed) == feed.key)
            if let stop = try database.fetchOne(request) {
                guard selectedFeeds.contains(feed) else {
                    throw TransitError.feedNotSelected(id: argument, feed: feed.name, selected: selectedFeeds.map(\.name))
                }
                return stop
            }
        }
        var request = FetchRequest<Stop>().filter(Stop.column(Stop.columns.stopID) == argument)
        if isRestricted { request = request.filter(Stop.column(Stop.columns.feed).isIn(selectedFeeds.map(\.key))) }
        let found = try database.fetch(request)
        guard let first = found.first else {
            if isRestricted { throw TransitError.unknownStopInFeeds(id: argument, feeds: selectedFeeds.map(\.name)) }
            throw TransitError.unknownStop(id: argument)
        }
        guard found.count == 1 else {
            let candidates = found.map { (feed: feedName(ofKey: $0.key), stop: $0) }
                .sorted { $0.feed.utf8.lexicographicallyPrecedes($1.feed.utf8) }
                .map { "\($0.feed):\($0.stop.stopID) (\($0.stop.name))" }
            throw TransitError.ambiguousStop(id: argument, candidates: candidates)
        }
        return first
    }

    /// The trip an id argument names, with its feed: `FEED:ID`, or a bare `ID` that exactly one of
    /// the selected feeds has (several: `TransitError.ambiguousTrip` listing `FEED:ID (headsign)`).
    public func trip(named argument: String) throws -> (feed: Feed, key: Int) {
        try resolve(argument, id: Trip.columns.tripID, feed: Trip.columns.feed, label: [Trip.columns.headsign],
                    unknown: TransitError.unknownTrip(id: argument),
                    ambiguous: { TransitError.ambiguousTrip(id: argument, candidates: $0) })
    }

    /// The route an id argument names, with its feed, as `trip(named:)` does for trips.
    public func route(named argument: String) throws -> (feed: Feed, key: Int) {
        try resolve(argument, id: Route.columns.routeID, feed: Route.columns.feed, label: [Route.columns.shortName, Route.columns.longName],
                    unknown: TransitError.unknownRoute(id: argument),
                    ambiguous: { TransitError.ambiguousRoute(id: argument, candidates: $0) })
    }

    /// `FEED:ID` or a bare id of `Record`'s table (unique per feed in the column `id`), among the
    /// selected feeds; `label` names it in a message about several (the first of its columns
    /// that is not NULL).
    private func resolve<Record: Entity>(_ argument: String, id idColumn: RecordColumn<Record>, feed feedColumn: RecordColumn<Record>,
                                         label: [RecordColumn<Record>], unknown: TransitError,
                                         ambiguous: ([String]) -> TransitError) throws -> (feed: Feed, key: Int) {
        let key = Record.primaryKey
        let labelValue = label.count == 1 ? Record.column(label[0]) : .coalesce(label.map { Record.column($0) })
        func matches(_ id: String, feeds: [Feed]) throws -> [(feed: Feed, key: Int, headsign: String)] {
            var found: [(Feed, Int, String)] = []
            var request = FetchRequest<Record>().filter(Record.column(idColumn) == id)
            if feeds.count != self.feeds.count { request = request.filter(Record.column(feedColumn).isIn(feeds.map(\.key))) }
            let query = request.query.select([SelectedProperty(Record.column(key)), SelectedProperty(labelValue, as: "label")])
            try database.forEachRow(SQLGenerator.prepare(query)) { row in
                if let feed = self.feed(ofKey: row.int(key)) { found.append((feed, row.int(key), row.optionalString("label") ?? "")) }
            }
            return found
        }
        if let colon = argument.firstIndex(of: ":"), let feed = feeds.first(where: { $0.name == argument[..<colon] }),
           let match = try matches(String(argument[argument.index(after: colon)...]), feeds: [feed]).first {
            guard selectedFeeds.contains(feed) else {
                throw TransitError.feedNotSelected(id: argument, feed: feed.name, selected: selectedFeeds.map(\.name))
            }
            return (match.feed, match.key)
        }
        let found = try matches(argument, feeds: selectedFeeds).sorted { feedOrder($0.feed.name, $1.feed.name) }
        guard let first = found.first else { throw unknown }
        guard found.count == 1 else {
            throw ambiguous(found.map { "\($0.feed.name):\(argument) (\($0.headsign))" })
        }
        return (first.feed, first.key)
    }

    /// The keys of the stops a rider can board at for `stop`: the stop itself, and when it is a
    /// station, its boarding points (`location_type` 0 or empty) too.
    public func boardingKeys(for stop: Stop) throws -> [Int] {
        guard stop.locationType == 1 else { return [stop.key] }
        let children = FetchRequest<Stop>().filter(Stop.column(Stop.columns.parent) == stop.key && Stop.boardingPoints())
        return [stop.key] + (try database.fetchIdentifiers(children).map { Int($0) })
    }

    /// `boardingKeys(for:)` of the stop `argument` names (`FEED:ID` or a bare id).
    public func boardingKeys(forStopID argument: String) throws -> [Int] {
        try boardingKeys(for: try stop(named: argument))
    }

    /// The keys of the selected feeds when queries are restricted (`--feed`), else nil.
    public var restrictedFeedKeys: [Int]? { isRestricted ? selectedFeeds.map(\.key) : nil }

    /// A template condition keeping rows of `count` feeds: `column = $feed0 OR column = $feed1 …`,
    /// so one prepared statement serves every choice of that many feeds (`.all` for none).
    public static func feedsTemplate(_ column: SQLExpression, count: Int) -> SQLPredicate {
        count == 0 ? .all : SQLPredicate.anyOf((0..<count).map { column == SQLExpression.variable("feed\($0)") })
    }
}

/// Orders feed names the way every listing breaks ties: by their bytes.
@inline(__always)
func feedOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
