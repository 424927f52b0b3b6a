/// What the connection reports for each request it runs, when an observer is set:
/// the SQL, its arguments, SQLite's plan, how many rows came back and how long it took.
public struct ExecutedRequest: Sendable {
    /// The SQL and arguments that ran.
    public let request: PreparedRequest
    /// SQLite's `EXPLAIN QUERY PLAN` for the same SQL and arguments.
    public let plan: QueryPlan
    /// The number of rows the statement returned.
    public let rowCount: Int
    /// Wall-clock seconds from the first step to the last, plan excluded.
    public let seconds: Double

    /// A report of `request`, which returned `rowCount` rows in `seconds` (in one run or, for a
    /// statement run many times, in all of them) and is planned as `plan`.
    public init(request: PreparedRequest, plan: QueryPlan, rowCount: Int, seconds: Double) {
        self.request = request
        self.plan = plan
        self.rowCount = rowCount
        self.seconds = seconds
    }
}
