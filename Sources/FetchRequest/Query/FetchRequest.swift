/// A description of what to fetch: Core Data's `NSFetchRequest`, over SQLite, as a value.
///
///     var request = FetchRequest<Stop>()
///     request.predicate = Column("stop_lon").between(25.2, and: 25.3)
///     request.sortDescriptors = [Column("stop_id").ascending]
///     request.fetchLimit = 20
///     // SELECT "stops"."id", … FROM "stops" WHERE "stop_lon" BETWEEN ? AND ? ORDER BY "stop_id" LIMIT ?
///
/// A request is turned into SQL only by `prepare()`, which is public so the exact SQL and
/// arguments can be shown (`--explain`) before anything runs.
public struct FetchRequest<Record: Entity>: Sendable {
    /// The query the request stands for; the properties below read and write it.
    public var query: Query
    /// How many records a batched fetch hands over at a time (`fetchBatchSize`); 0 means all.
    public var fetchBatchSize: Int = 0

    /// A request for every record of the entity.
    public init(alias: String? = nil) {
        query = Query(table: Record.tableName, alias: alias)
    }

    /// The `WHERE` condition (`predicate`).
    public var predicate: SQLPredicate {
        get { query.predicate }
        set { query.predicate = newValue }
    }

    /// The order of the results (`sortDescriptors`).
    public var sortDescriptors: [SortDescriptor] {
        get { query.sortDescriptors }
        set { query.sortDescriptors = newValue }
    }

    /// At most this many records (`fetchLimit`); 0 means no limit.
    public var fetchLimit: Int {
        get { query.limit ?? 0 }
        set { query.limit = newValue > 0 ? newValue : nil }
    }

    /// Skip this many records first (`fetchOffset`).
    public var fetchOffset: Int {
        get { query.offset }
        set { query.offset = newValue }
    }

    /// A copy that also requires `predicate` (CoreStore's `Where`, combined with `AND`).
    public func filter(_ predicate: SQLPredicate) -> Self {
        var copy = self
        copy.query = query.filter(predicate)
        return copy
    }

    /// A copy sorted by `descriptors` (CoreStore's `OrderBy`).
    public func sorted(by descriptors: [SortDescriptor]) -> Self {
        var copy = self
        copy.query.sortDescriptors = descriptors
        return copy
    }

    /// A copy with `fetchLimit` and `fetchOffset` set.
    public func limited(to limit: Int, offset: Int = 0) -> Self {
        var copy = self
        copy.fetchLimit = limit
        copy.fetchOffset = offset
        return copy
    }

    /// A copy with `join` added, so predicates and sort keys can use the joined table's columns.
    public func joining(_ join: Join) -> Self {
        var copy = self
        copy.query.joins.append(join)
        return copy
    }

    /// The query that selects the entity's columns (what a typed fetch runs).
    public var recordQuery: Query {
        query.select(Record.columnNames.map { SelectedProperty(Column($0, of: query.alias)) })
    }

    /// The query that selects only the primary keys (Core Data's `managedObjectIDResultType`).
    public var identifierQuery: Query {
        query.select([SelectedProperty(Column(Record.primaryKey, of: query.alias))])
    }

    /// The SQL and arguments of a typed fetch.
    public func prepare() -> PreparedRequest {
        SQLGenerator.prepare(recordQuery)
    }
}
