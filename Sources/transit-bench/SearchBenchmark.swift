import CSQLite
import FetchRequest
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// 2,000 seeded random name prefixes (3–5 letters of a random stop's word, every fourth query two
/// words): the shipped design (`stop_name_prefixes`, read in listing order) next to an FTS5 table
/// (`unicode61 remove_diacritics 2`, prefix queries) built over the same normalized names, so both
/// meet the folding rules.
enum SearchBenchmark {
    static func run(database path: String, count: Int, seed: UInt64) throws {
        let transit = try TransitDatabase(path: path)
        var generator = SeededGenerator(seed: seed)
        var names: [String] = []
        try transit.database.forEachRow(SQLGenerator.prepare(Query(table: "stops").select(Column(Stop.Columns.normalizedName.name)).filter(try sampledStops(transit)))) {
            names.append($0.string(0))
        }
        func randomPrefix() -> String {
            let words = NameNormalizer.words(ofNormalized: names[Int.random(in: 0..<names.count, using: &generator)])
                .filter { $0.count >= 3 }
            guard let word = words.randomElement(using: &generator) else { return "sto" }
            return String(word.prefix(Int.random(in: 3...5, using: &generator)))
        }
        let texts: [String] = (0..<count).map { index in
            index % 4 == 3 ? randomPrefix() + " " + randomPrefix() : randomPrefix()
        }
        // FTS5 over the normalized names, built in a scratch file and attached.
        let scratchPath = path + ".fts5.sqlite"
        unlink(scratchPath)
        do {
            let scratch = try Database(path: scratchPath, mode: .readWrite)
            try scratch.execute("ATTACH " + SQLValue.text(path).literalDescription + " AS feed")
            try scratch.execute("CREATE VIRTUAL TABLE names USING fts5(name, tokenize = 'unicode61 remove_diacritics 2')")
            try scratch.execute("INSERT INTO names (rowid, name) SELECT id, normalized_name FROM feed.stops")
        }
        defer { unlink(scratchPath) }
        try transit.database.execute("ATTACH " + SQLValue.text(scratchPath).literalDescription + " AS scratch")
        let ftsSQL = """
            SELECT s.id, s.stop_id, s.stop_name, s.stop_lat, s.stop_lon, s.location_type, s.parent, s.platform_code
            FROM stops AS s WHERE s.location_type IN (0, 1) AND s.parent IS NULL
            AND s.id IN (SELECT COALESCE(m.parent, m.id) FROM stops AS m WHERE m.id IN (SELECT rowid FROM scratch.names WHERE names MATCH ?))
            ORDER BY CASE WHEN s.normalized_name >= ? AND s.normalized_name < ? THEN 0 ELSE 1 END, s.normalized_name, s.stop_id LIMIT 20
            """
        let statement = try transit.database.makeStatement(ftsSQL)
        // The shipped search and FTS5, timed in turn text by text (`timePairs`).
        let (module, fts) = try timePairs(texts, { text in
            try StopSearchQuery(text: text).run(on: transit).count
        }, { text in
            let query = try StopSearchQuery(text: text)
            let match = query.words.map { "\"" + $0 + "\"*" }.joined(separator: " AND ")
            // The floor is hand-written SQL: its three values are bound by place, as raw SQL's are.
            try statement.bind(.text(match), at: 1)
            try statement.bind(.text(query.normalizedText), at: 2)
            try statement.bind(.text(SQLPredicate.successor(of: query.normalizedText) ?? ""), at: 3)
            var rows = 0
            while try statement.step() {
                _ = try Stop(row: statement.row)
                rows += 1
            }
            statement.reset()
            return rows
        })
        let generation = try generationOnly(texts)
        print("search, \(count) seeded random prefixes (3-5 letters, every fourth query two words):")
        report("  stop_name_prefixes (shipped)", module)
        report("  FTS5 prefix query, same folding", fts)
        report("  (normalizing + generating SQL alone)", generation)
        print("  ratio stop_name_prefixes / FTS5: " + String((median(module.micros) / median(fts.micros) * 100).rounded() / 100))
    }
}

extension SearchBenchmark {
    /// How long normalizing the text and generating the SQL take alone, per query.
    static func generationOnly(_ texts: [String]) throws -> (micros: [Double], rows: Int) {
        try timeEach(texts) { text in try StopSearchQuery(text: text).prepared().arguments.count }
    }
}
