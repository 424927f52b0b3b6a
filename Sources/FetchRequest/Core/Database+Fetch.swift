import CSQLite
#if canImport(Glibc)
import Glibc
#endif

extension Database {
    /// Runs `request`, calling `body` with each row as it comes (nothing is collected), and
    /// reports the run to `observer` when one is set.
    public func forEachRow(_ request: PreparedRequest, _ body: (Row) throws -> Void) throws {
        try readRows(request, while: { row in
            try body(row)
            return true
        })
    }

    /// Runs `request`, calling `body` with each row as it comes until `body` returns false: the
    /// rows after it are never computed, so a request whose order an index gives (no sort) reads
    /// only as far as the caller needs, which a `LIMIT` cannot say when the caller skips rows.
    /// The run is reported to `observer` with the rows read.
    public func readRows(_ request: PreparedRequest, while body: (Row) throws -> Bool) throws {
        let statement = try cachedStatement(request.sql)
        defer { statement.reset() }
        try statement.bind(request.arguments)
        guard let observer else {
            while try statement.step() {
                if try !body(statement.row) { return }
            }
            return
        }
        let plan = try queryPlan(request)
        var rows = 0
        let start = monotonicSeconds()
        while try statement.step() {
            rows += 1
            if try !body(statement.row) { break }
        }
        observer(ExecutedRequest(request: request, plan: plan, rowCount: rows, seconds: monotonicSeconds() - start))
    }

    /// Runs a request that changes rows (`prepareDelete`, `prepareInsert`) and returns how many
    /// rows it changed.
    @discardableResult
    public func run(_ request: PreparedRequest) throws -> Int {
        let statement = try cachedStatement(request.sql)
        defer { statement.reset() }
        try statement.bind(request.arguments)
        while try statement.step() {}
        return changes
    }

    /// SQLite's plan for `request`, without running it.
    public func queryPlan(_ request: PreparedRequest) throws -> QueryPlan {
        if let store { return try store.queryPlan(request.sql, arguments: request.arguments) }
        let explain = request.explainQueryPlan
        let statement = try makeStatement(explain.sql)
        try statement.bind(explain.arguments)
        var steps: [QueryPlan.Step] = []
        while try statement.step() {
            let row = statement.row
            steps.append(QueryPlan.Step(id: row.int(0), parent: row.int(1), detail: row.string(3)))
        }
        return QueryPlan(steps: steps)
    }

    /// The records `request` describes (Core Data's `managedObjectResultType`).
    public func fetch<Record: Entity>(_ request: FetchRequest<Record>) throws -> [Record] {
        var records: [Record] = []
        try forEachRow(request.prepare()) { records.append(try Record(row: $0)) }
        return records
    }

    /// The first record `request` describes, or nil.
    public func fetchOne<Record: Entity>(_ request: FetchRequest<Record>) throws -> Record? {
        try fetch(request.limited(to: 1, offset: request.fetchOffset)).first
    }

    /// Hands the records over in batches of `request.fetchBatchSize` (all at once when 0), holding
    /// no more than one batch in memory, however large the result.
    public func forEachBatch<Record: Entity>(_ request: FetchRequest<Record>, _ body: ([Record]) throws -> Void) throws {
        let size = request.fetchBatchSize > 0 ? request.fetchBatchSize : Int.max
        var batch: [Record] = []
        batch.reserveCapacity(min(size, 4096))
        try forEachRow(request.prepare()) { row in
            batch.append(try Record(row: row))
            if batch.count >= size {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// How many records `request` describes, by `SELECT COUNT(*)`: nothing is fetched
    /// (Core Data's `countResultType`).
    public func count<Record: Entity>(_ request: FetchRequest<Record>) throws -> Int {
        try count(request.query)
    }

    /// How many rows `query` selects, by `SELECT COUNT(*)`.
    public func count(_ query: Query) throws -> Int {
        var result = 0
        try forEachRow(SQLGenerator.prepareCount(query)) { result = $0.int(0) }
        return result
    }

    /// The primary keys of the records `request` describes (Core Data's `managedObjectIDResultType`).
    public func fetchIdentifiers<Record: Entity>(_ request: FetchRequest<Record>) throws -> [Int64] {
        var identifiers: [Int64] = []
        try forEachRow(SQLGenerator.prepare(request.identifierQuery)) { identifiers.append(Int64($0.int(0))) }
        return identifiers
    }

    /// The rows of `query` as dictionaries from result-column name to value
    /// (Core Data's `dictionaryResultType` with `propertiesToFetch`).
    public func fetchDictionaries(_ query: Query) throws -> [[String: SQLValue]] {
        var rows: [[String: SQLValue]] = []
        try forEachRow(SQLGenerator.prepare(query)) { row in
            var dictionary: [String: SQLValue] = [:]
            for (index, name) in row.columnNames.enumerated() { dictionary[name] = row.value(index) }
            rows.append(dictionary)
        }
        return rows
    }
}
