import FetchRequest

/// "Which stop is called something like this": case-, diacritic- and word-prefix-insensitive name
/// search, answered by index searches that read about as many rows as they show.
///
/// The text is normalized like the stored names (`NameNormalizer`) and split into words. A stop
/// matches when every query word is a prefix of some word of its normalized name (all words of one
/// stop's name: a platform's name finds its station). Stops whose whole normalized name starts
/// with the whole normalized query come first, then the rest; within each group by normalized
/// name (code-point order), then feed name, then `stop_id`.
///
/// The index is `stop_name_prefixes` (`StopNamePrefixes`): every prefix of every word, keyed
/// `(prefix, shown_name, shown_stop_id, shown, stop)`. The longest query word is one equality on
/// the key, whose rows are already in listing order, so no sort runs: the first request reads the
/// names that start with the text (a range of `shown_name` inside the prefix), the second the
/// others, and each stops as soon as the listing is full, having looked up one row of `stops` per
/// answer. The other words filter (`stop IN (… prefix = ?)`). The feeds share the index, so they
/// are searched together; `--feed` adds `feed = ? OR …`, and stops of several feeds that tie on the
/// name are put in feed-name order as they are read.
public struct StopSearchQuery: Sendable {
    /// The most distinct words a query may have (each is one index search in the SQL).
    public static let maximumWords = 32

    /// Why a search text cannot be searched.
    public enum Problem: Error, CustomStringConvertible, Equatable {
        case noLettersOrDigits
        case tooManyWords(Int)

        public var description: String {
            switch self {
            case .noLettersOrDigits: return "the search text has no letters or digits to search for"
            case .tooManyWords(let count):
                return "the search text has \(count) different words; at most \(StopSearchQuery.maximumWords) are searched, so shorten it"
            }
        }
    }

    /// The normalized query.
    public let normalizedText: String
    /// The query words that constrain the match: duplicates and words that are prefixes of other
    /// query words (implied by them) are left out.
    public let words: [String]
    /// At most this many stops (0: all).
    public var limit = 20
    /// List every boarding point instead of stations and parentless stops.
    public var platforms = false

    /// A search for `text`; throws when it has no letters or digits, or too many words.
    public init(text: String) throws {
        var normalized = Substring(NameNormalizer.normalize(text))
        while normalized.first == " " { normalized = normalized.dropFirst() }
        while normalized.last == " " { normalized = normalized.dropLast() }
        normalizedText = String(normalized)
        let all = Array(Set(NameNormalizer.words(ofNormalized: normalizedText)))
        let needed = all.filter { word in !all.contains { $0 != word && $0.hasPrefix(word) } }.sorted()
        guard !needed.isEmpty else { throw Problem.noLettersOrDigits }
        guard needed.count <= StopSearchQuery.maximumWords else { throw Problem.tooManyWords(needed.count) }
        words = needed
        // The first of the longest words: `max(by:)` keeps the first of equals.
        let scanned = needed.max { $0.unicodeScalars.count < $1.unicodeScalars.count } ?? needed[0]
        var others = needed
        others.removeAll { $0 == scanned }
        scannedWord = scanned
        filterWords = others.filter { !StopNamePrefixes.isMatchedAsRange($0) } + others.filter(StopNamePrefixes.isMatchedAsRange)
        normalizedTextEnd = StopSearchQuery.upperBound(normalizedText)
    }

    /// Above every string that starts with the normalized text: the end of its range, made once
    /// for both requests.
    let normalizedTextEnd: SQLValue

    /// The word whose rows are read in listing order: the longest (the fewest rows).
    let scannedWord: String
    /// The other words, each a filter: those that are one stored prefix first, then the longer ones.
    let filterWords: [String]

    /// The two requests of a search, run in this order (the second only while the listing has room).
    public enum Part: Int, Sendable, CaseIterable {
        /// The stops whose whole normalized name starts with the whole normalized text.
        case namesStartingWithText
        /// The other matching stops.
        case otherNames
    }

    /// What a search request's SQL depends on, beyond the values bound: one template per shape.
    public struct Shape: Sendable, Equatable {
        /// The scanned word is longer than the stored prefixes (a range on whole words, sorted).
        public var scannedWordIsLong = false
        /// How many other words are one stored prefix (an equality each).
        public var shortFilterWords = 0
        /// How many other words are longer than the stored prefixes (a range each).
        public var longFilterWords = 0
        /// The `--platforms` listing (rows whose `shown_in` serves it).
        public var platforms = false
        /// Which of the two requests.
        public var part = Part.namesStartingWithText
        /// How many feeds the search is restricted to (0: all).
        public var feedCount = 0

        /// The shape of a one-word search of every feed's stops listing, first request.
        public init() {}

        /// A number for the shape, unique among shapes (the template cache's key).
        var key: Int {
            var key = feedCount
            key = key * (StopSearchQuery.maximumWords + 1) + shortFilterWords
            key = key * (StopSearchQuery.maximumWords + 1) + longFilterWords
            return ((key * 2 + (scannedWordIsLong ? 1 : 0)) * 2 + (platforms ? 1 : 0)) * 2 + part.rawValue
        }
    }

    /// The request of one shape: the words, the whole-text range and the feeds are substitution
    /// variables, so one template serves every search of that shape.
    ///
    ///     SELECT "stops"."id", …, "stops"."feed", "stop_name_prefixes"."shown_name" FROM "stop_name_prefixes"
    ///       JOIN "stops" ON "stops"."id" = "stop_name_prefixes"."shown"
    ///       WHERE "stop_name_prefixes"."prefix" = ? AND "stop_name_prefixes"."shown_in" IN (?, ?)
    ///         AND "stop_name_prefixes"."shown_name" >= ? AND "stop_name_prefixes"."shown_name" < ?
    ///         AND "stop_name_prefixes"."stop" IN (SELECT "stop" FROM "stop_name_prefixes" WHERE "prefix" = ?)
    ///       ORDER BY "stop_name_prefixes"."shown_name", "stop_name_prefixes"."shown_stop_id", "stop_name_prefixes"."shown"
    ///
    /// (`otherNames`: `NOT (… >= ? AND … < ?)`.) The order is the key's, so SQLite sorts nothing,
    /// unless the scanned word is longer than the stored prefixes (a range over whole words).
    public static func template(_ shape: Shape) -> Query {
        let table = StopNamePrefix.tableName
        func column(_ column: StopNamePrefix.Columns) -> SQLExpression { StopNamePrefix.column(column) }
        func matching(_ word: String, long: Bool, _ prefix: SQLExpression) -> SQLPredicate {
            long ? prefix >= .variable(word + "From") && prefix < .variable(word + "To") : prefix == .variable(word)
        }
        let name = column(.shownName)
        let startsWithText = name >= .variable("name") && name < .variable("nameEnd")
        var predicate = matching("word0", long: shape.scannedWordIsLong, column(.prefix))
            && column(.shownIn).isIn(StopNamePrefixes.Listing.values(readBy: shape.platforms))
            && (shape.part == .namesStartingWithText ? startsWithText : !startsWithText)
        for index in 0..<(shape.shortFilterWords + shape.longFilterWords) {
            // The subquery's columns are unqualified: its table is the outer one's, and SQLite
            // reads them from the nearest.
            let words = Query(table: table).select(Column(StopNamePrefix.Columns.stop.rawValue))
                .filter(matching("word\(index + 1)", long: index >= shape.shortFilterWords, Column(StopNamePrefix.Columns.prefix.rawValue)))
            predicate = predicate && column(.stop).isIn(words)
        }
        predicate = predicate && TransitDatabase.feedsTemplate(Stop.column(Stop.columns.feed), count: shape.feedCount)
        return Query(table: table)
            .joining(Join(table: Stop.tableName, on: Stop.column(Stop.columns.key) == column(.shown)))
            .select(Stop.columnNames.map { SelectedProperty(Stop.column($0)) } + [SelectedProperty(name)])
            .filter(predicate)
            .sorted(by: [name.ascending, column(.shownStopID).ascending, column(.shown).ascending])
    }

    /// The shape of this search's request for `part`, restricted to `feedCount` feeds (0: all).
    public func shape(part: Part, feedCount: Int) -> Shape {
        var shape = Shape()
        shape.scannedWordIsLong = StopNamePrefixes.isMatchedAsRange(scannedWord)
        let others = filterWords
        shape.longFilterWords = others.filter(StopNamePrefixes.isMatchedAsRange).count
        shape.shortFilterWords = others.count - shape.longFilterWords
        shape.platforms = platforms
        shape.part = part
        shape.feedCount = feedCount
        return shape
    }

    /// The request for `part` of this search, ready to run: its shape's template with the values
    /// bound.
    ///
    /// A word longer than the stored prefixes is Core Data's `BEGINSWITH` on whole words, as `>=`
    /// and `<` the prefix's successor; a prefix with no successor (all U+10FFFF) gets an upper
    /// bound above every string. The whole text's range is made the same way.
    public func prepared(part: Part = .namesStartingWithText, feeds: [Int]? = nil) throws -> PreparedRequest {
        let shape = shape(part: part, feedCount: feeds?.count ?? 0)
        let template = StopSearchQuery.templates.template(key: shape.key) {
            SQLGenerator.prepare(StopSearchQuery.template(shape))
        }
        var values: [SQLValue] = []
        func match(_ word: String) {
            values += StopNamePrefixes.isMatchedAsRange(word) ? [.text(word), StopSearchQuery.upperBound(word)] : [.text(word)]
        }
        match(scannedWord)
        values += [.text(normalizedText), normalizedTextEnd]
        for word in filterWords { match(word) }
        for feed in feeds ?? [] { values.append(.integer(Int64(feed))) }
        return try template.binding(values)
    }

    /// The end of the range of strings that start with `prefix`: its successor, or, for a prefix
    /// with none (all U+10FFFF), a bound above every string SQLite compares with BINARY (text sorts
    /// below blobs).
    static func upperBound(_ prefix: String) -> SQLValue {
        SQLPredicate.successor(of: prefix).map { .text($0) } ?? .text(String(repeating: "\u{10FFFF}", count: prefix.unicodeScalars.count + 1))
    }

    /// Templates generated so far, one per shape, shared by every search in the process.
    private static let templates = TemplateCache<PreparedRequest>()

    /// The matching stops of the selected feeds in order, at most `limit`: the names that start
    /// with the text, then (while there is room) the others, each read only as far as needed.
    public func run(on transit: TransitDatabase) throws -> [Stop] {
        var listing = SearchListing(limit: limit, orderingTiesBy: transit.selectedFeeds.count > 1 ? transit : nil)
        for part in Part.allCases where !listing.isFull {
            try transit.database.readRows(try prepared(part: part, feeds: transit.restrictedFeedKeys), while: { try listing.add($0) })
            listing.endTie()
        }
        return listing.answers
    }
}

/// A search's answers as its rows come: each stop once (a station's platforms and entrances share
/// its rows), up to the limit; when several feeds are searched, the stops of one name (rows come by
/// name, then stop_id) are put in feed-name order before they are counted.
struct SearchListing {
    /// At most this many answers (0: all).
    private let limit: Int
    /// The database whose feed names order stops of one name, when rows of several feeds can tie.
    private let feeds: TransitDatabase?
    private var stops: [Stop] = []
    private var seen: Set<Int> = []
    /// The stops of the name read last, waiting for feed-name order (with several feeds).
    private var tie: [Stop] = []
    private var tieName = ""

    init(limit: Int, orderingTiesBy feeds: TransitDatabase?) {
        self.limit = limit
        self.feeds = feeds
    }

    /// True when the listing has all the answers it can show.
    var isFull: Bool { limit > 0 && stops.count >= limit }

    /// Takes the next row (a stop and its `shown_name`); returns whether more rows are wanted.
    mutating func add(_ row: Row) throws -> Bool {
        let stop = try Stop(row: row)
        guard seen.insert(stop.key).inserted else { return true }
        guard feeds != nil else {
            stops.append(stop)
            return !isFull
        }
        let name = row.string("shown_name")
        if !name.utf8.elementsEqual(tieName.utf8) {
            endTie()
            tieName = name
        }
        tie.append(stop)
        return !isFull
    }

    /// Adds the stops of the last name read, in feed-name order, then stop_id.
    mutating func endTie() {
        guard let feeds, !tie.isEmpty else { return }
        stops += tie.sorted { a, b in
            let (feedA, feedB) = (feeds.feedName(ofKey: a.key), feeds.feedName(ofKey: b.key))
            if feedA != feedB { return feedOrder(feedA, feedB) }
            return textOrder(a.stopID, b.stopID)
        }
        tie.removeAll()
    }

    /// The answers in order, at most the limit.
    var answers: [Stop] { limit > 0 ? Array(stops.prefix(limit)) : stops }
}
