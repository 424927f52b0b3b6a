import FetchRequest

/// PostgreSQL's `EXPLAIN` text drawn as SQLite's query plan tree (`QueryPlan`), for `--explain`.
///
///     Limit                                        QUERY PLAN
///       ->  Sort                                   `--Limit
///             Sort Key: departure          →          `--Sort (Sort Key: departure)
///             ->  Index Scan using … on stops            `--Index Scan using … on stops (Index Cond: …)
///                   Index Cond: (…)
///
/// Each plan node is a step, its parent the nearest node above it indented less; the lines under
/// a node that are not nodes (conditions, sort keys) are joined into its step in parentheses.
struct PostgresPlan {
    /// The plan's steps, and for each the table a `Seq Scan` reads whole (nil for other steps).
    private(set) var steps: [QueryPlan.Step] = []
    private(set) var sequentialScans: [String] = []

    init(lines: [String]) {
        var details: [Int: [String]] = [:]
        var nodes: [(id: Int, parent: Int, indent: Int, text: String)] = []
        var open: [(indent: Int, id: Int)] = []
        for line in lines {
            let indent = line.prefix { $0 == " " }.count
            var text = line.dropFirst(indent)
            let isNode = nodes.isEmpty || text.hasPrefix("->") || text.hasPrefix("SubPlan") || text.hasPrefix("InitPlan")
            guard isNode else {
                if let last = nodes.last { details[last.id, default: []].append(String(text)) }
                continue
            }
            if text.hasPrefix("->") { text = text.dropFirst(2).drop { $0 == " " } }
            while let top = open.last, top.indent >= indent { open.removeLast() }
            let id = nodes.count + 1
            nodes.append((id, open.last?.id ?? 0, indent, String(text)))
            open.append((indent, id))
            if text.hasPrefix("Seq Scan on "), let table = text.dropFirst(12).split(separator: " ").first {
                sequentialScans.append(String(table))
            }
        }
        steps = nodes.map { node in
            let extra = details[node.id].map { " (" + $0.joined(separator: "; ") + ")" } ?? ""
            return QueryPlan.Step(id: node.id, parent: node.parent, detail: node.text + extra)
        }
    }
}

extension PostgresStore {
    /// Tables with fewer rows than this are read whole by choice (a plan's `Seq Scan` of the
    /// feeds or metadata tables is no missing index), so `--explain` flags only larger ones.
    static let smallTableRows = 1_000

    /// The tables among `tables` the server estimates (`pg_class.reltuples`, made by `ANALYZE`)
    /// to hold at least `smallTableRows` rows.
    func largeTables(among tables: [String]) throws -> [String] {
        try tables.filter { table in
            let rows = try connection.value(
                "SELECT reltuples FROM pg_class JOIN pg_namespace ON pg_namespace.oid = relnamespace WHERE nspname = $1 AND relname = $2",
                [StorePublisher.liveSchema, table])
            return (rows.flatMap(Double.init) ?? 0) >= Double(Self.smallTableRows)
        }
    }
}
