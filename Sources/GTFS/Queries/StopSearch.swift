import FetchRequest

/// "Which stop is called something like this": case-, diacritic- and word-prefix-insensitive name
/// search, answered by index ranges.
///
/// The text is normalized like the stored names (`NameNormalizer`) and split into words. A stop
/// matches when every query word is a prefix of some word of its normalized name; each word is an
/// index range on `stop_words(word, stop)` (`word >= 'gorli' AND word < 'gorlj'`), never `LIKE` and
/// never a scan. Stops whose whole normalized name starts with the whole normalized query come
/// first, then the rest; within each group by normalized name (code-point order), then feed name,
/// then `stop_id`. The words of every feed's stops share one table, so the feeds are searched
/// together; `--feed` adds `feed = ? OR …`.
public struct StopSearchQuery: Sendable {
    /// The most distinct words a query may have (each is one index range in the SQL).
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
    }

    /// The request shape for `wordCount` words: the word prefixes, the whole-name prefix and the
    /// limit are substitution variables, so one template serves every query of that shape.
    ///
    ///     SELECT … FROM "stops" WHERE "stops"."location_type" IN (?, ?) AND "stops"."parent" IS NULL
    ///       AND "stops"."id" IN (SELECT "listed_as" FROM "stop_words" WHERE "word" >= ? AND "word" < ?
    ///         AND "stop" IN (SELECT "stop" FROM "stop_words" WHERE "word" >= ? AND "word" < ?))
    ///     ORDER BY CASE WHEN "stops"."normalized_name" >= ? AND "stops"."normalized_name" < ? THEN ? ELSE ? END,
    ///       "stops"."normalized_name", "stops"."stop_id" LIMIT ?
    public static func template(wordCount: Int, platforms: Bool, feeds: SQLPredicate = .all) -> FetchRequest<Stop> {
        func wordRange(_ index: Int) -> SQLPredicate {
            Column("word") >= .variable("from\(index)") && Column("word") < .variable("to\(index)")
        }
        var matching = Query(table: "stop_words").select(Column(platforms ? "stop" : "listed_as")).filter(wordRange(0))
        for index in 1..<max(wordCount, 1) {
            matching = matching.filter(Column("stop").isIn(
                Query(table: "stop_words").select(Column("stop")).filter(wordRange(index))))
        }
        var request = FetchRequest<Stop>()
        request.predicate = Stop.listed(platforms: platforms) && Stop.column("id").isIn(matching) && feeds
        let name = Stop.column("normalized_name")
        let startsWithQuery = SQLExpression.when(name >= .variable("name") && name < .variable("nameEnd"),
                                                 then: .value(0), else: .value(1))
        // The stop's feed's name, looked up only for the rows sorted.
        let feedName = SQLExpression.subquery(Query(table: Feed.tableName).select(Feed.column("name"))
            .filter(Feed.column("id") == Stop.column("feed")))
        request.sortDescriptors = [startsWithQuery.ascending, name.ascending, feedName.ascending, Stop.column("stop_id").ascending]
        request.query.limitVariable = "limit"
        return request
    }

    /// The request for this search, ready to run: its shape's template with the values bound.
    ///
    /// The prefix ranges are Core Data's `BEGINSWITH` as `>=` and `<` the prefix's successor; a
    /// prefix with no successor (all U+10FFFF) gets an upper bound above every string.
    public func prepared(feeds: [Int]? = nil) throws -> PreparedRequest {
        let feedCount = feeds?.count ?? 0
        let key = (feedCount * (StopSearchQuery.maximumWords + 1) + words.count) * 2 + (platforms ? 1 : 0)
        let template = StopSearchQuery.templates.template(key: key) {
            SQLGenerator.prepare(StopSearchQuery.template(wordCount: words.count, platforms: platforms,
                                                          feeds: TransitDatabase.feedsTemplate(Stop.column("feed"), count: feedCount)).recordQuery)
        }
        // Above every string SQLite can compare with BINARY: text sorts below blobs.
        func upperBound(_ prefix: String) -> SQLValue {
            SQLPredicate.successor(of: prefix).map { .text($0) } ?? .text(String(repeating: "\u{10FFFF}", count: prefix.unicodeScalars.count + 1))
        }
        var values: [SQLValue] = []
        for word in words { values += [.text(word), upperBound(word)] }
        for feed in feeds ?? [] { values.append(.integer(Int64(feed))) }
        values += [.text(normalizedText), upperBound(normalizedText), .integer(Int64(limit > 0 ? limit : -1))]
        return try template.binding(values)
    }

    /// Templates generated so far, one per shape, shared by every search in the process.
    private static let templates = TemplateCache()

    /// The matching stops of the selected feeds in order, at most `limit`.
    public func run(on transit: TransitDatabase) throws -> [Stop] {
        var stops: [Stop] = []
        try transit.database.forEachRow(try prepared(feeds: transit.restrictedFeedKeys)) { stops.append(try Stop(row: $0)) }
        return stops
    }
}

