import FetchRequest

/// What journey searches read, loaded from `planner_<feed>` as they need it: each selected feed's
/// stop index's header at once, a block of its stops or a tile of its map the first time a search
/// needs one of their stops, a pattern only when a search first reaches one of its stops, the
/// services running on a day when a search first asks for it. Kept for the whole process, so a batch of
/// questions reads each piece once.
///
/// Stops are numbered across the feeds (a feed's stops follow the previous feed's), so one array
/// per label serves every feed and walks join stops of different feeds.
final class PlannerTimetable {
    /// One feed's part.
    struct FeedPart {
        let feed: Feed
        /// The header of the feed's stop index (its blocks and tiles are read on first use).
        let stops: PlannerStopIndex
        /// The number of the feed's first stop across the feeds.
        let firstStop: Int
        /// The number of the feed's pattern 1 across the feeds, minus 1.
        let patternOffset: Int
        let patternCount: Int
        /// transfers.txt rows that name no route and no trip, by stop or station key.
        let transfersFrom: [Int: [TransferRule]]
        let transfersTo: [Int: [TransferRule]]
        /// The feed's stored realtime data (nil: none).
        let realtime: PlannerRealtime?
    }

    /// A transfers.txt row the planner applies.
    struct TransferRule {
        let from: Int
        let to: Int
        /// 0–3 (4 and 5 are left out when read).
        let type: Int
        let minimumTime: Int?
    }

    let database: Database
    let parts: [FeedPart]
    let stopCount: Int
    /// Patterns across the feeds, read on first use (looked up by every scan, so without dynamic
    /// exclusivity checks: nothing holds an access to them across a call).
    let patterns: SparseSlab<TripPattern>
    /// Where the patterns read keep their scan forms (in huge pages where the system allows).
    private let arena = PatternArena()
    /// Per stored pattern number, its scan form once read (`scanned(_:)`): a dense table of
    /// pointers, so that a scan reads the pattern's own memory and nothing else.
    private let scanBlocks: Slab<UnsafeMutableRawPointer?>
    /// Which runs run, per feed part, service date and realtime choice (`runs(part:on:realtime:)`).
    private var runsByDate: [RunsOnDate.Key: RunsOnDate] = [:]
    /// Runs as realtime data predicts them, each a pattern of one run, numbered after `patterns`
    /// as they are made, with their feed parts.
    private var predictedRuns: [(pattern: TripPattern, part: Int)] = []
    /// The number of the pattern standing for run `run` of pattern `pattern` on the date, by
    /// (pattern, run, yyyymmdd); nil when realtime data lets no rider use the run.
    private var predictedNumbers: [RunOnDate: Int?] = [:]

    /// A run of a pattern on a service date.
    private struct RunOnDate: Hashable {
        let pattern: Int
        let run: Int
        let date: Int
    }
    /// Per feed part, the request reading one pattern (`$id`), and its statement.
    private var patternRequests: [PreparedRequest] = []
    private var patternStatements: [Statement] = []
    /// On a server, per feed part, the request reading `PlannerTimetable.batchSize` patterns at
    /// once (`readPatterns(_:)`) and its statement, made on first use.
    private var batchRequests: [PreparedRequest?] = []
    private var batchStatements: [Statement?] = []
    /// Per feed part, the batches read: patterns, runs of the statement, seconds, the last ids.
    private var batchReads: [(rows: Int, runs: Int, seconds: Double, lastIDs: [Int])] = []
    /// How many patterns and bytes were read, and in how long (for `--explain`), in all and per
    /// feed part.
    private(set) var patternsRead = 0
    private(set) var bytesRead = 0
    private(set) var readSeconds = 0.0
    private var reads: [RowReads] = []
    /// Per feed part, the blocks of its stop index and the tiles of its map once read.
    private var stopBlocks: [[StopBlock?]]
    private var stopTiles: [[StopTile?]]
    /// Per feed part of a database written before the stop index had blocks, its whole index,
    /// which serves the blocks and tiles (nil for others).
    private let firstForms: [PlannerStopIndex.FirstForm?]
    /// Per feed part, the rows of its stop index read, in how long, and the last one's id (for
    /// `--explain`).
    private var stopRowReads: [RowReads] = []
    /// Per feed part, its bounds once read (nil inside: none stored).
    private var boundsByPart: [Int: PlannerBounds?] = [:]
    /// Per feed part, the rows of bounds read, in how long, and the last one's id (for `--explain`).
    private var boundReads: [RowReads] = []
    /// The services running on a date, by feed index and yyyymmdd.
    private var services: [Int: RunningServices] = [:]

    /// The services running on one date: a mask over the range of their keys (a feed's keys are
    /// its row numbers, so the range is about as long as the feed's services), so that each run's
    /// service is one load, not one hash.
    struct RunningServices {
        /// The smallest key running, and per key from it whether it runs.
        let first: Int
        let mask: [Bool]

        init(_ keys: Set<Int>) {
            first = keys.min() ?? 0
            var mask = [Bool](repeating: false, count: keys.isEmpty ? 0 : keys.max()! - first + 1)
            for key in keys { mask[key - first] = true }
            self.mask = mask
        }

        /// Whether the service keyed `key` runs that day.
        @inline(__always) func contains(_ key: Int) -> Bool {
            let slot = key - first
            return slot >= 0 && slot < mask.count && mask[slot]
        }
    }

    /// Loads the headers of the stop indexes of `feeds` from `database`; throws `TransitError.noPlannerTimetable`
    /// when a feed was imported before the planner's timetable existed. `realtime` holds the
    /// stored realtime data's delay range of each feed (by key) that has some.
    init(database: Database, feeds: [Feed], realtime: [Int: RealtimeWindow] = [:]) throws {
        self.database = database
        var parts: [FeedPart] = []
        var firstStop = 0
        var patternOffset = 0
        var firstForms: [PlannerStopIndex.FirstForm?] = []
        for feed in feeds {
            let table = Schema.planner(feed.key)
            guard try SchemaObject.exists(table.name, in: database) else { throw TransitError.noPlannerTimetable(feed: feed.name) }
            let (id, data) = (Column(Schema.PlannerColumn.id.rawValue), Column(Schema.PlannerColumn.data.rawValue))
            var patternCount = 0
            try database.forEachRow(SQLGenerator.prepare(Query(table: table.name).select([SelectedProperty(id.max)]))) {
                patternCount = $0.optionalInt(0) ?? 0
            }
            let select = SQLGenerator.prepare(Query(table: table.name).select(data).filter(id == 0))
            var stored: (index: PlannerStopIndex, firstForm: PlannerStopIndex.FirstForm?)?
            try PlannerTimetable.reading(feed) {
                try database.forEachRow(select) { row in
                    stored = try row.withBlob(0) { bytes in
                        if let header = try PlannerStopIndex(header: bytes) { return (header, nil) }
                        let whole = try PlannerStopIndex.FirstForm(bytes)
                        return (whole.index, whole)
                    }
                }
            }
            guard let (index, firstForm) = stored else { throw TransitError.noPlannerTimetable(feed: feed.name) }
            firstForms.append(firstForm)
            let (from, to) = try PlannerTimetable.transferRules(feedKey: feed.key, in: database)
            parts.append(FeedPart(feed: feed, stops: index, firstStop: firstStop, patternOffset: patternOffset,
                                  patternCount: patternCount, transfersFrom: from, transfersTo: to,
                                  realtime: realtime[feed.key].map { PlannerRealtime(database: database, feedKey: feed.key, window: $0) }))
            firstStop += index.count
            patternOffset += patternCount
        }
        self.parts = parts
        self.firstForms = firstForms
        stopBlocks = parts.map { [StopBlock?](repeating: nil, count: $0.stops.blockCount) }
        stopTiles = parts.map { [StopTile?](repeating: nil, count: $0.stops.tileKeys.count) }
        stopCount = firstStop
        patterns = SparseSlab(count: patternOffset)
        scanBlocks = Slab(count: patternOffset, fill: nil)
        for part in parts {
            // One row by its key, read hundreds of times a search: one plan serves every key.
            var query = Query(table: Schema.planner(part.feed.key).name).select(Column(Schema.PlannerColumn.data.rawValue))
                .filter(Column(Schema.PlannerColumn.id.rawValue) == SQLExpression.variable("id"))
            query.plannedOnce = true
            let request = SQLGenerator.prepare(query)
            patternRequests.append(request)
            patternStatements.append(try database.makeStatement(request.sql))
            batchRequests.append(nil)
            batchStatements.append(nil)
            batchReads.append((0, 0, 0, []))
            reads.append(RowReads())
            boundReads.append(RowReads())
            stopRowReads.append(RowReads())
        }
    }

    /// Runs `read` (a read of `feed`'s planner table), a stored row that ends before what its
    /// header announces reported as the damaged table it is (`PackedReader.Truncated` says
    /// neither which table nor what to do).
    private static func reading(_ feed: Feed, _ read: () throws -> Void) throws {
        do {
            try read()
        } catch is PackedReader.Truncated {
            throw TransitError.damagedPlannerTimetable(feed: feed.name, table: Schema.planner(feed.key).name, source: feed.source)
        }
    }

    /// The transfers.txt rows of feed `feedKey` the planner applies (no route or trip named,
    /// types 0–3), by their from and to keys.
    static func transferRules(feedKey: Int, in database: Database) throws -> (from: [Int: [TransferRule]], to: [Int: [TransferRule]]) {
        let table = Schema.transfers(feedKey)
        var from: [Int: [TransferRule]] = [:]
        var to: [Int: [TransferRule]] = [:]
        typealias C = Schema.TransferColumn
        func column(_ name: C) -> SQLExpression { Column(name.rawValue) }
        let query = Query(table: table.name).select(column(.fromStop), column(.toStop), column(.transferType), column(.minimumTime))
            .filter(column(.fromRoute).isNull && column(.toRoute).isNull && column(.fromTrip).isNull && column(.toTrip).isNull)
            .filter(column(.fromStop).isNotNull && column(.toStop).isNotNull && column(.transferType) <= 3)
        try database.forEachRow(SQLGenerator.prepare(query)) { row in
            let rule = TransferRule(from: row.int(0), to: row.int(1), type: row.int(2), minimumTime: row.optionalInt(3))
            from[rule.from, default: []].append(rule)
            to[rule.to, default: []].append(rule)
        }
        return (from, to)
    }

    // MARK: Stops

    /// The feed part holding stop number `stop`.
    func part(ofStop stop: StopNumber) -> Int {
        var index = parts.count - 1
        while index > 0 && parts[index].firstStop > stop.index { index -= 1 }
        return index
    }

    /// The number of the stop keyed `key`, or nil when its feed is not loaded.
    func stopNumber(ofKey key: Int) -> StopNumber? {
        let feed = FeedKeys.feed(of: key)
        guard let part = parts.first(where: { $0.feed.key == feed }) else { return nil }
        let slot = key - FeedKeys.base(of: feed) - 1
        guard slot >= 0, slot < part.stops.count else { return nil }
        return StopNumber(part.firstStop + slot)
    }

    /// The key of stop number `stop`.
    func key(ofStop stop: StopNumber) -> Int {
        let part = parts[part(ofStop: stop)]
        return FeedKeys.base(of: part.feed.key) + 1 + (stop.index - part.firstStop)
    }

    /// The position of stop number `stop` (nil when the feed gives none).
    func position(ofStop stop: StopNumber) throws -> (latitude: Double, longitude: Double)? {
        let (block, index) = try block(ofStop: stop)
        let (latitude, longitude) = (block.latitudes[index], block.longitudes[index])
        return latitude.isNaN || longitude.isNaN ? nil : (latitude, longitude)
    }

    /// The parent station's number of stop number `stop`, if any.
    func parent(ofStop stop: StopNumber) throws -> StopNumber? {
        let (block, index) = try block(ofStop: stop)
        let parent = block.parents[index]
        return parent < 0 ? nil : StopNumber(parts[part(ofStop: stop)].firstStop + Int(parent))
    }

    /// Whether stop number `stop` is a boarding point (`location_type` 0).
    func isBoardingPoint(_ stop: StopNumber) throws -> Bool {
        let (block, index) = try block(ofStop: stop)
        return block.locationTypes[index] == 0
    }

    /// The boarding points whose parent station is stop number `stop`, in order.
    func children(ofStation stop: StopNumber) throws -> [StopNumber] {
        let (block, index) = try block(ofStop: stop)
        let first = parts[part(ofStop: stop)].firstStop
        return block.children(of: index).map { StopNumber(first + Int($0)) }
    }

    /// The (pattern number, position) pairs calling at stop number `stop`.
    @inline(__always) func calls(atStop stop: StopNumber) throws -> ArraySlice<(pattern: UInt32, position: UInt32)> {
        let (block, index) = try block(ofStop: stop)
        return block.calls(at: index)
    }

    /// Calls `body` with the number, position and latitude cosine of every boarding point within
    /// `radius` metres of a position, and of some beyond (those in the circle's bounding box,
    /// `PlannerStopIndex.box`): the candidates a walk is measured to.
    func forEachBoardingPoint(near latitude: Double, _ longitude: Double, within radius: Double,
                              _ body: (StopNumber, Double, Double, Double) throws -> Void) throws {
        let box = PlannerStopIndex.box(around: latitude, longitude, within: radius)
        for (partIndex, part) in parts.enumerated() {
            for tileIndex in part.stops.tiles(overlapping: box) {
                let tile = try stopTile(part: partIndex, tile: tileIndex)
                for entry in tile.slots.indices
                where box.latitudes.contains(tile.latitudes[entry]) && box.longitudes.contains(tile.longitudes[entry]) {
                    try body(StopNumber(part.firstStop + Int(tile.slots[entry])), tile.latitudes[entry], tile.longitudes[entry],
                             tile.cosines[entry])
                }
            }
        }
    }

    /// The block holding stop number `stop` and the stop's place in it, read on first use.
    @inline(__always) private func block(ofStop stop: StopNumber) throws -> (block: StopBlock, index: Int) {
        let partIndex = part(ofStop: stop)
        let (block, index) = parts[partIndex].stops.block(ofSlot: stop.index - parts[partIndex].firstStop)
        if let known = stopBlocks[partIndex][block] { return (known, index) }
        let read = try firstForms[partIndex]?.block(block)
            ?? readStopRow(part: partIndex, id: PlannerStopIndex.blockID(block)) { try StopBlock(packed: $0) }
        guard read.latitudes.count > index else { throw PackedReader.Truncated() }
        stopBlocks[partIndex][block] = read
        return (read, index)
    }

    /// Tile `tile` of feed part `part`'s map, read on first use.
    private func stopTile(part: Int, tile: Int) throws -> StopTile {
        if let known = stopTiles[part][tile] { return known }
        let read = try firstForms[part]?.tile(tile) ?? readStopRow(part: part, id: PlannerStopIndex.tileID(tile)) { try StopTile(packed: $0) }
        guard read.slots.allSatisfy({ Int($0) < parts[part].stops.count }) else { throw PackedReader.Truncated() }
        stopTiles[part][tile] = read
        return read
    }

    /// Row `id` of feed part `part`'s stop index through `read`; a missing row, or one that ends
    /// early, reported as the damaged table it is.
    private func readStopRow<T>(part: Int, id: Int, _ read: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        let started = monotonicSeconds()
        defer { stopRowReads[part].count(id, since: started) }
        guard let found = try readRow(part: part, id: id, read) else {
            let feed = parts[part].feed
            throw TransitError.damagedPlannerTimetable(feed: feed.name, table: Schema.planner(feed.key).name, source: feed.source)
        }
        return found
    }

    /// The reads of the blocks and tiles of each feed part's stop index that read any, as
    /// `--explain` reports statements (as `patternReadReports`).
    func stopIndexReadReports() throws -> [ExecutedRequest] {
        try reports(of: stopRowReads)
    }

    // MARK: Patterns

    /// Pattern number `number` across the feeds (its feed part and id), read on first use; past
    /// the stored patterns, a run as realtime data predicts it.
    func pattern(_ number: Int) throws -> TripPattern {
        if number >= patterns.count { return predictedRuns[number - patterns.count].pattern }
        if let pattern = patterns[number] { return pattern }
        var partIndex = parts.count - 1
        while partIndex > 0 && parts[partIndex].patternOffset > number { partIndex -= 1 }
        let part = parts[partIndex]
        let started = monotonicSeconds()
        defer {
            let seconds = monotonicSeconds() - started
            readSeconds += seconds
            reads[partIndex].seconds += seconds
        }
        let id = number - part.patternOffset + 1
        let read = try readRow(part: partIndex, id: id) { try keep(packed: $0, number: number) }
        guard let read else { throw TransitError.noPlannerTimetable(feed: part.feed.name) }
        reads[partIndex].rows += 1
        reads[partIndex].lastID = id
        return read
    }

    /// Decodes the stored pattern `bytes` and keeps it as pattern number `number`.
    private func keep(packed bytes: UnsafeRawBufferPointer, number: Int) throws -> TripPattern {
        bytesRead += bytes.count
        let read = try TripPattern(packed: bytes, arena: arena)
        read.stopNumbers = read.stops.map { stopNumber(ofKey: $0) }
        scanBlocks[number] = read.scanned.block
        patternsRead += 1
        patterns[number] = read
        return read
    }

    /// How many patterns one statement of `readPatterns(_:)` reads.
    static let batchSize = 64

    /// Reads the stored patterns among `numbers` not read yet, `batchSize` to a statement, when
    /// the database is a server: there each statement is a round trip, and a search reaching a few
    /// hundred patterns one at a time spent most of its time waiting (a `plan` within the large
    /// feed's city: 421 round trips). On a file a pattern is read where it is first needed.
    func readPatterns(_ numbers: [Int]) throws {
        guard database.store != nil else { return }
        var wanted: [[Int]] = Array(repeating: [], count: parts.count)
        for number in numbers where number < patterns.count && patterns[number] == nil {
            let part = part(ofPattern: number)
            wanted[part].append(number - parts[part].patternOffset + 1)
        }
        for (part, ids) in wanted.enumerated() where !ids.isEmpty {
            for start in stride(from: 0, to: ids.count, by: PlannerTimetable.batchSize) {
                try readBatch(part: part, ids: Array(ids[start..<min(start + PlannerTimetable.batchSize, ids.count)]))
            }
        }
    }

    /// Reads the patterns `ids` (at most `batchSize`) of feed part `part` in one statement.
    private func readBatch(part: Int, ids: [Int]) throws {
        let started = monotonicSeconds()
        if batchStatements[part] == nil {
            let (id, data) = (Column(Schema.PlannerColumn.id.rawValue), Column(Schema.PlannerColumn.data.rawValue))
            var query = Query(table: Schema.planner(parts[part].feed.key).name).select(id, data)
                .filter(id.isIn(variablesNamed: "id", count: PlannerTimetable.batchSize))
            query.plannedOnce = true
            let request = SQLGenerator.prepare(query)
            batchRequests[part] = request
            batchStatements[part] = try database.makeStatement(request.sql)
        }
        let statement = batchStatements[part]!
        statement.reset()
        // A short batch repeats its last id (IN ignores repeats), so the request's 64 variables
        // are one statement for every batch (on a server they are one array anyway).
        let padded = ids + Array(repeating: ids.last!, count: PlannerTimetable.batchSize - ids.count)
        try statement.bind(padded.map { .integer(Int64($0)) })
        var found = 0
        try PlannerTimetable.reading(parts[part].feed) {
            while try statement.step() {
                let row = statement.row
                _ = try row.withBlob(1) { try keep(packed: $0, number: patternNumber(part: part, id: UInt32(row.int(0)))) }
                found += 1
            }
        }
        guard found == ids.count else {
            let feed = parts[part].feed
            throw TransitError.damagedPlannerTimetable(feed: feed.name, table: Schema.planner(feed.key).name, source: feed.source)
        }
        let seconds = monotonicSeconds() - started
        readSeconds += seconds
        batchReads[part].rows += found
        batchReads[part].runs += 1
        batchReads[part].seconds += seconds
        batchReads[part].lastIDs = padded
    }

    /// The batches `readPatterns(_:)` read of each feed part that read any, as `--explain` reports
    /// a statement (the last batch's ids bound), with how many runs of it there were.
    func patternBatchReadReports() throws -> [(executed: ExecutedRequest, runs: Int)] {
        try parts.indices.filter { batchReads[$0].runs > 0 }.map { index in
            let reads = batchReads[index]
            let request = try batchRequests[index]!.binding(reads.lastIDs.map { .integer(Int64($0)) })
            return (ExecutedRequest(request: request, plan: try database.queryPlan(request), rowCount: reads.rows, seconds: reads.seconds), reads.runs)
        }
    }

    /// Reads row `id` of feed part `part`'s planner table through `read` (nil: no such row).
    private func readRow<T>(part: Int, id: Int, _ read: (UnsafeRawBufferPointer) throws -> T) throws -> T? {
        let statement = patternStatements[part]
        statement.reset()
        try statement.bind(.integer(Int64(id)), at: 1)
        var found: T?
        try PlannerTimetable.reading(parts[part].feed) {
            while try statement.step() { found = try statement.row.withBlob(0, read) }
        }
        return found
    }

    // MARK: Bounds

    /// Feed part `part`'s lower bounds (`PlannerBounds`), read on first use; nil when none are
    /// stored (a database imported before them): its searches then prune nothing.
    func bounds(part: Int) throws -> PlannerBounds? {
        if let known = boundsByPart[part] { return known }
        let found = try readBoundRow(part: part, id: PlannerBounds.headerID) { try PlannerBounds(header: $0) } ?? nil
        boundsByPart[part] = .some(found)
        return found
    }

    /// Row `id` of feed part `part`'s bounds, as its 2-byte values (none when it is missing).
    func boundRow(part: Int, id: Int) throws -> [UInt16] {
        try readBoundRow(part: part, id: id) { bytes in
            var reader = PackedReader(bytes)
            return try reader.integers(bytes.count / 2, of: UInt16.self)
        } ?? []
    }

    /// Row `id` of feed part `part`'s bounds, as its bytes (none when it is missing).
    func boundByteRow(part: Int, id: Int) throws -> [UInt8] {
        try readBoundRow(part: part, id: id) { [UInt8]($0) } ?? []
    }

    /// `readRow` of a row of bounds, counted for `--explain`.
    private func readBoundRow<T>(part: Int, id: Int, _ read: (UnsafeRawBufferPointer) throws -> T) throws -> T? {
        let started = monotonicSeconds()
        defer { boundReads[part].count(id, since: started) }
        return try readRow(part: part, id: id, read)
    }

    /// The reads of lower bounds of each feed part that read any, as `--explain` reports
    /// statements (as `patternReadReports`).
    func boundReadReports() throws -> [ExecutedRequest] {
        try reports(of: boundReads)
    }

    /// Pattern number `number` as a search scans it (read on first use, as `pattern(_:)`).
    @inline(__always) func scanned(_ number: Int) throws -> ScannedPattern {
        if number < scanBlocks.count, let block = scanBlocks[number] { return ScannedPattern(block: block) }
        return try pattern(number).scanned
    }

    /// The feed part pattern number `number` belongs to.
    func part(ofPattern number: Int) -> Int {
        if number >= patterns.count { return predictedRuns[number - patterns.count].part }
        var index = parts.count - 1
        while index > 0 && parts[index].patternOffset > number { index -= 1 }
        return index
    }

    /// The global number of pattern `id` of the feed part `part`.
    func patternNumber(part: Int, id: UInt32) -> Int { parts[part].patternOffset + Int(id) - 1 }

    // MARK: Services

    /// Which runs of feed part `part`'s patterns run on `date`, on the timetable or with the
    /// part's realtime data applied (`realtime`), worked out pattern by pattern as searches scan
    /// them (`workOutRuns`) and kept for the process.
    func runs(part: Int, on date: ServiceDate, realtime: Bool) -> RunsOnDate {
        let key = RunsOnDate.Key(part: part, date: date.yyyymmdd, realtime: realtime && parts[part].realtime != nil)
        if let known = runsByDate[key] { return known }
        let made = RunsOnDate(date: date, patternCount: patterns.count, realtime: key.realtime)
        runsByDate[key] = made
        return made
    }

    /// Works out which runs of pattern `number` run on `day` (of feed part `part`): those whose
    /// service runs that date, less, with realtime data applied, the runs whose trip has a trip
    /// update that day (its candidates, ridden through `predictedRun`).
    func workOutRuns(of number: Int, part: Int, on day: RunsOnDate) throws {
        let pattern = try pattern(number)
        let running = try services(part: part, on: day.date)
        var mask = pattern.services.map { running.contains($0) }
        if day.realtime, let source = parts[part].realtime {
            let updated = try source.updatedTrips(on: day.date)
            var candidates: [Int] = []
            for run in mask.indices where mask[run] && updated.contains(pattern.trips[run]) {
                mask[run] = false
                candidates.append(run)
            }
            if !candidates.isEmpty { day.candidates[number] = candidates }
        }
        day.record(mask, of: number)
    }

    /// The number of a pattern of one run standing for run `run` of pattern `number` (of feed
    /// part `part`) on `date` (whose noon − 12 h is `base`) as realtime data predicts it (its
    /// changes read the first time a search reaches it, `PlannerRealtime`), or nil when no rider
    /// can use it (cancelled).
    func predictedRun(of pattern: TripPattern, number: Int, run: Int, part: Int, on date: ServiceDate, base: Int) throws -> Int? {
        let key = RunOnDate(pattern: number, run: run, date: date.yyyymmdd)
        if let known = predictedNumbers[key] { return known }
        guard let source = parts[part].realtime else { preconditionFailure("no realtime data for feed part \(part)") }
        let made: TripPattern?
        switch try source.prediction(of: pattern, run: run, base: base) {
        case .unchanged: made = try pattern.singleRun(run)
        case .cancelled: made = nil
        case .predicted(let changed): made = changed
        }
        var found: Int?
        if let made {
            found = patterns.count + predictedRuns.count
            predictedRuns.append((made, part))
        }
        predictedNumbers[key] = found
        return found
    }

    /// The pattern reads of each feed part that read any, as `--explain` reports statements: the
    /// request (bound to the last pattern read), its plan, and the rows and seconds of all its
    /// runs. A pattern is read by its own run of the statement, so these are not observed one
    /// by one.
    func patternReadReports() throws -> [ExecutedRequest] {
        try reports(of: reads)
    }

    /// The rows of one kind read from each feed part's planner table, in how long, and the last
    /// one's id (for `--explain`).
    private struct RowReads {
        var rows = 0
        var seconds = 0.0
        var lastID = 0

        /// Counts a read of row `id` that started at `started` (`monotonicSeconds`).
        mutating func count(_ id: Int, since started: Double) {
            rows += 1
            seconds += monotonicSeconds() - started
            lastID = id
        }
    }

    /// `reads` (one per feed part) as `--explain` reports statements, for the parts that read
    /// any: the request bound to the last row read, its plan, and the rows and seconds in all.
    private func reports(of reads: [RowReads]) throws -> [ExecutedRequest] {
        try parts.indices.filter { reads[$0].rows > 0 }.map { index in
            let request = try patternRequests[index].binding([.integer(Int64(reads[index].lastID))])
            return ExecutedRequest(request: request, plan: try database.queryPlan(request), rowCount: reads[index].rows,
                                   seconds: reads[index].seconds)
        }
    }

    /// The lookups of runs' realtime changes of each feed part that made any, as `--explain`
    /// reports a statement (`PlannerRealtime.changeReadReport`).
    func realtimeReadReports() throws -> [ExecutedRequest] {
        try parts.compactMap { try $0.realtime?.changeReadReport() }
    }

    /// Seconds spent reading runs' realtime changes.
    var realtimeSeconds: Double { parts.compactMap(\.realtime).map(\.readSeconds).reduce(0, +) }

    /// How many runs' realtime changes were read (for `--explain`).
    var realtimeRunsRead: Int { parts.compactMap(\.realtime).map(\.runsRead).reduce(0, +) }

    /// Whether realtime data is stored for feed part `part`.
    func hasRealtime(part: Int) -> Bool { parts[part].realtime != nil }

    /// The stored delay range of feed part `part` (0, 0 without realtime data).
    func delayRange(part: Int) -> (earliest: Int, latest: Int) {
        guard let realtime = parts[part].realtime else { return (0, 0) }
        return (realtime.earliestDelay, realtime.latestDelay)
    }

    /// The services of feed part `part` running on `date`.
    func services(part: Int, on date: ServiceDate) throws -> RunningServices {
        let key = part << 32 | date.yyyymmdd
        if let found = services[key] { return found }
        let feed = parts[part].feed
        var fetch = TransitModel.fetch("service_days", feedKey: feed.key)
        fetch.filter(fetch.required("date") == SQLExpression.value(date.yyyymmdd))
        fetch.select(fetch.key(of: "service"), as: "service")
        let query = fetch.requiredQuery()
        var found = Set<Int>()
        let prepared = SQLGenerator.prepare(query)
        try database.forEachRow(prepared) { found.insert($0.int(0)) }
        let running = RunningServices(found)
        services[key] = running
        return running
    }
}
