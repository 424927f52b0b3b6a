/// SQLite's `EXPLAIN QUERY PLAN` for one statement: a tree of steps such as
/// `SEARCH stops USING INDEX stops_by_location (stop_lon>? AND stop_lon<?)`.
///
/// See https://www.sqlite.org/eqp.html for what each line means.
public struct QueryPlan: Sendable, Equatable {
    /// One line of the plan.
    public struct Step: Sendable, Equatable {
        public let id: Int
        public let parent: Int
        public let detail: String

        public init(id: Int, parent: Int, detail: String) {
            self.id = id
            self.parent = parent
            self.detail = detail
        }
    }

    /// The steps in the order SQLite reported them (parents before children).
    public let steps: [Step]

    /// The statement the plan is for, when it is not the request's own text (a server's
    /// translation of it).
    public let statement: String?
    /// The tables a server's plan reads whole that are large enough to matter, when the server
    /// said (its plans scan small tables by choice); nil to judge by the steps.
    let largeScannedTables: [String]?

    public init(steps: [Step], statement: String? = nil, largeScannedTables: [String]? = nil) {
        self.steps = steps
        self.statement = statement
        self.largeScannedTables = largeScannedTables
    }

    /// The plan drawn as a tree, as the `sqlite3` shell draws it:
    ///
    ///     QUERY PLAN
    ///     |--SEARCH stops USING INDEX stops_by_location (stop_lon>? AND stop_lon<?)
    ///     `--USE TEMP B-TREE FOR ORDER BY
    public var tree: String {
        var lines = ["QUERY PLAN"]
        func draw(parent: Int, prefix: String) {
            let children = steps.filter { $0.parent == parent }
            for (index, child) in children.enumerated() {
                let last = index == children.count - 1
                lines.append(prefix + (last ? "`--" : "|--") + child.detail)
                draw(parent: child.id, prefix: prefix + (last ? "   " : "|  "))
            }
        }
        draw(parent: 0, prefix: "")
        return lines.joined(separator: "\n")
    }

    /// The tables the plan reads by a full scan (`SCAN stops`, not `SCAN … USING COVERING INDEX`
    /// and not a `SEARCH`): the sign of a missing or unusable index.
    public var fullyScannedTables: [String] {
        if let largeScannedTables { return largeScannedTables }
        return steps.compactMap { step in
            guard step.detail.hasPrefix("SCAN ") else { return nil }
            if step.detail.contains(" USING COVERING INDEX ") || step.detail.contains(" USING INDEX ") {
                return nil
            }
            let rest = step.detail.dropFirst(5)
            let name = rest.split(separator: " ").first.map(String.init) ?? String(rest)
            // Subquery results and constant rows are not tables of the database.
            if name.hasPrefix("CONSTANT") || name == "SUBQUERY" || name.hasPrefix("(") { return nil }
            // SQLite's own schema table (read to check the file, a few rows) is no table of ours.
            if name == "sqlite_master" || name == "sqlite_schema" || name == "sqlite_temp_master" { return nil }
            return name
        }
    }
}
