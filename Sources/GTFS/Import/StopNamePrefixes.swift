import FetchRequest

/// The rows of `stop_name_prefixes`, the index `transit search` reads: every prefix of every word
/// of each stop's normalized name, with the stop a rider is shown for it and that stop's sort keys.
///
/// Keyed `(prefix, shown_name, shown_stop_id, shown, stop)`, one search word is one equality on the
/// key, and its rows come out in the order a listing shows them (by name, then stop_id): a search
/// reads as many rows as it shows, with no sort and one lookup in `stops` per answer. A word range
/// on the words alone (schema 3's `stop_words`) found every stop with a matching word, looked each
/// one up and sorted them all, to keep 20.
///
/// A stop is shown in two listings (`Listing`): the stops listing shows stations and stops without
/// a parent, so a platform, entrance or boarding area is shown as its station; `--platforms` shows
/// every boarding point as itself. A prefix of a parentless boarding point has one row for both.
enum StopNamePrefixes {
    /// Prefixes are stored up to this many characters (Unicode scalars); a longer word is stored
    /// whole as well, and a search word longer than this is matched as a range on those whole
    /// words. So a name of one 10,000-letter word costs 17 rows, not 10,000 rows of 5,000 letters.
    static let longestPrefix = 16

    /// The listings a row serves (`shown_in`).
    enum Listing: Int, Sendable {
        /// The stops listing: stations and stops without a parent (`transit search`).
        case stops = 1
        /// The boarding points, each as itself (`transit search --platforms`).
        case platforms = 2
        /// Both: a boarding point without a parent is shown as itself in each.
        case both = 3

        /// The `shown_in` values of the rows a listing reads.
        static func values(readBy platforms: Bool) -> [Int] {
            platforms ? [Listing.platforms.rawValue, Listing.both.rawValue] : [Listing.stops.rawValue, Listing.both.rawValue]
        }
    }

    /// What the rows of one stop are made from.
    struct NamedStop {
        let key: Int
        let stopID: String
        let normalizedName: String
        let locationType: Int
        /// The key of its parent station (platform, for a boarding area), if any.
        let parent: Int?
    }

    /// The prefixes `prefixes(of:)` stores for one word of a normalized name.
    static func prefixes(ofWord word: String) -> [String] {
        let scalars = Array(word.unicodeScalars)
        var prefixes: [String] = []
        var prefix = String.UnicodeScalarView()
        for scalar in scalars.prefix(longestPrefix) {
            prefix.append(scalar)
            prefixes.append(String(prefix))
        }
        if scalars.count > longestPrefix { prefixes.append(word) }
        return prefixes
    }

    /// Every prefix stored for a normalized name: those of each of its words, each once.
    static func prefixes(of normalizedName: String) -> Set<String> {
        var all: Set<String> = []
        for word in NameNormalizer.words(ofNormalized: normalizedName) { all.formUnion(prefixes(ofWord: word)) }
        return all
    }

    /// True when a search word is matched as a range on whole words (it is longer than any
    /// prefix stored), false when it is one stored prefix.
    static func isMatchedAsRange(_ word: String) -> Bool {
        word.unicodeScalars.count > longestPrefix
    }

    /// One row of a named stop for each of its prefixes: the stop shown for it, in which listings.
    private struct Entry {
        /// Positions in the stops written.
        let shown: Int
        let stop: Int
        let listing: Listing
    }

    /// Writes the rows of `stops` (every stop whose parent they name must be among them) into
    /// `stop_name_prefixes`, in key order, inside the caller's transaction; returns how many.
    static func write(_ stops: [NamedStop], into database: Database) throws -> Int {
        var positionOfKey: [Int: Int] = [:]
        for (position, stop) in stops.enumerated() { positionOfKey[stop.key] = position }
        var entries: [Entry] = []
        for (position, stop) in stops.enumerated() {
            // A boarding area's parent is a platform, whose parent is the station: list it as the station.
            var listedAs = stop.parent.flatMap { positionOfKey[$0] } ?? position
            if let grandparent = stops[listedAs].parent.flatMap({ positionOfKey[$0] }) { listedAs = grandparent }
            let listed = stops[listedAs]
            let inStops = listed.parent == nil && (listed.locationType == 0 || listed.locationType == 1)
            let inPlatforms = stop.locationType == 0
            if inStops && inPlatforms && listedAs == position {
                entries.append(Entry(shown: position, stop: position, listing: .both))
                continue
            }
            if inStops { entries.append(Entry(shown: listedAs, stop: position, listing: .stops)) }
            if inPlatforms { entries.append(Entry(shown: position, stop: position, listing: .platforms)) }
        }
        // The key's order after the prefix: the shown stop's name, stop_id and key, then the stop's key.
        let listingOrder = stops.indices.sorted { a, b in
            let (first, second) = (stops[a], stops[b])
            if !first.normalizedName.utf8.elementsEqual(second.normalizedName.utf8) {
                return textOrder(first.normalizedName, second.normalizedName)
            }
            if !first.stopID.utf8.elementsEqual(second.stopID.utf8) { return textOrder(first.stopID, second.stopID) }
            return first.key < second.key
        }
        var rank = [Int](repeating: 0, count: stops.count)
        for (position, index) in listingOrder.enumerated() { rank[index] = position }
        entries.sort { (rank[$0.shown], stops[$0.stop].key) < (rank[$1.shown], stops[$1.stop].key) }
        // Each prefix's entries, in that order.
        var prefixesOfStop: [Int: Set<String>] = [:]
        var entriesOfPrefix: [String: [Int]] = [:]
        for (position, entry) in entries.enumerated() {
            let prefixes = prefixesOfStop[entry.stop] ?? StopNamePrefixes.prefixes(of: stops[entry.stop].normalizedName)
            prefixesOfStop[entry.stop] = prefixes
            for prefix in prefixes { entriesOfPrefix[prefix, default: []].append(position) }
        }
        let insert = try BatchInsert(database, into: Schema.stopNamePrefixes)
        let columns = ColumnPositions(Schema.stopNamePrefixes)
        var rows = 0
        for (prefix, positions) in entriesOfPrefix.sorted(by: { textOrder($0.key, $1.key) }) {
            for position in positions {
                let entry = entries[position]
                let shown = stops[entry.shown]
                insert.set(columns.prefix, text: prefix)
                insert.set(columns.shownName, text: shown.normalizedName)
                insert.set(columns.shownStopID, text: shown.stopID)
                insert.set(columns.shown, integer: Int64(shown.key))
                insert.set(columns.stop, integer: Int64(stops[entry.stop].key))
                insert.set(columns.shownIn, integer: Int64(entry.listing.rawValue))
                try insert.endRow()
                rows += 1
            }
        }
        try insert.finish()
        return rows
    }

    /// The rows of every stop in `database` (all feeds), written afresh: what an upgrade from a
    /// schema without the table does. Returns how many.
    @discardableResult
    static func rebuild(in database: Database) throws -> Int {
        try database.run(SQLGenerator.prepareDelete(from: Schema.stopNamePrefixes.name, where: .all))
        var stops: [NamedStop] = []
        // Read by position, in the order selected here.
        let c = Stop.columns
        let columns = Query(table: Stop.tableName)
            .select(Stop.column(c.key), Stop.column(c.stopID), Stop.Columns.normalizedName.qualified, Stop.column(c.locationType), Stop.column(c.parent))
        try database.forEachRow(SQLGenerator.prepare(columns)) { row in
            stops.append(NamedStop(key: row.int(0), stopID: row.string(1), normalizedName: row.string(2),
                                   locationType: row.int(3), parent: row.optionalInt(4)))
        }
        return try write(stops, into: database)
    }

    /// The positions of the table's columns in an insert of all of them, found by name once.
    private struct ColumnPositions {
        let prefix, shownName, shownStopID, shown, stop, shownIn: Int

        init(_ table: TableDefinition) {
            func position(_ column: StopNamePrefix.Columns) -> Int {
                guard let position = table.columnNames.firstIndex(of: column.rawValue) else {
                    preconditionFailure("\(table.name) has no column \(column.rawValue)")
                }
                return position
            }
            prefix = position(.prefix)
            shownName = position(.shownName)
            shownStopID = position(.shownStopID)
            shown = position(.shown)
            stop = position(.stop)
            shownIn = position(.shownIn)
        }
    }
}

/// SQLite's `BINARY` order of two texts: by their UTF-8 bytes (the order of an index on them).
func textOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
