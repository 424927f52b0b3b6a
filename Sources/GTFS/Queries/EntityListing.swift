import FetchRequest

/// A table as `transit list` prints it, in the model's terms (`TransitModel`): the entity's
/// attributes, ids joined back from the integer keys, times as `HH:MM:SS`, rows in the table's
/// key order unless sorted; filtered by a predicate string and `FIELD=VALUE` conditions.
///
/// Each feed is one request (its own model: its tables, its key range), the feed's name first.
/// The realtime tables are listed too; a database that never read realtime data has none of
/// them, and lists no rows (`isRealtime`).
public struct EntityListing: Sendable {
    /// The tables `transit list` takes, in the order its help names them: the timetable's
    /// (`TransitModel.entityNames`), then the realtime ones `transit realtime` creates.
    public static let tableNames = TransitModel.entityNames + RealtimeSchema.tables.map(\.name)

    /// How a column's values are written.
    public enum Kind: Sendable {
        case text, integer, real
        /// Seconds after the start of the service day, written as `HH:MM:SS`.
        case time
    }

    /// One output column.
    public struct Field: Sendable {
        public let name: String
        public let kind: Kind

        public init(name: String, kind: Kind) {
            self.name = name
            self.kind = kind
        }
    }

    /// What to list.
    public struct Request: Sendable {
        /// The entity (`stops`, `stop_times`; `stop-times` is taken too).
        public var entity: String
        /// An NSPredicate format string, or nil.
        public var predicate: String?
        /// The values of `%@` and `%K`, in order.
        public var arguments: [String] = []
        /// The values of `$NAME` variables.
        public var variables: [String: String] = [:]
        /// `FIELD=VALUE` conditions (each `FIELD == VALUE`).
        public var conditions: [String] = []
        /// Key paths separated by commas, `-` before one for descending.
        public var sort: String?

        public init(entity: String) {
            self.entity = entity
        }
    }

    /// A table name that is no entity.
    public struct UnknownTable: Error, CustomStringConvertible {
        public let name: String
        public var description: String {
            "unknown table '\(name)'; list one of " + EntityListing.tableNames.joined(separator: ", ")
        }
    }

    /// A `--where` condition that names no attribute of the entity, or has no `=`.
    public struct UnknownField: Error, CustomStringConvertible {
        public let condition: String
        public let known: [String]
        public var description: String {
            "--where takes FIELD=VALUE with FIELD one of \(known.joined(separator: ", ")); got '\(condition)'"
        }
    }

    public let request: Request
    /// The entity's name in the model.
    public let entityName: String
    /// The columns after `feed`.
    public let fields: [Field]
    /// True for a realtime table: a database that never read realtime data (`transit realtime`)
    /// does not have it yet, which a listing takes for no rows.
    public let isRealtime: Bool

    /// Checks `request` against the model (entity, key paths, values, sort keys): throws
    /// `UnknownTable`, `UnknownField` or `PredicateFormatError` (with the place in the predicate).
    public init(_ request: Request) throws {
        let name = request.entity == "stop-times" ? "stop_times" : request.entity
        let model = TransitModel.model(forFeedKey: 0)
        guard EntityListing.tableNames.contains(name), let entity = model[name] else { throw UnknownTable(name: request.entity) }
        self.request = request
        entityName = name
        isRealtime = RealtimeSchema.tables.contains { $0.name == entity.table }
        fields = entity.attributes.map { attribute in
            let kind: Kind
            switch attribute.type {
            case .text: kind = .text
            case .real: kind = .real
            case .integer, .boolean, .enumeration: kind = .integer
            case .converted(let form, _): kind = form == TransitModel.timeForm ? .time : .integer
            }
            return Field(name: attribute.name, kind: kind)
        }
        _ = try fetch(in: model)
    }

    /// The fetch of this listing in `model`: filters and sort applied.
    private func fetch(in model: ObjectModel) throws -> ModelFetch {
        guard var fetch = ModelFetch(entity: entityName, in: model) else { throw UnknownTable(name: request.entity) }
        let known = fields.map(\.name)
        for condition in request.conditions {
            guard let equals = condition.firstIndex(of: "="), known.contains(String(condition[..<equals])) else {
                throw UnknownField(condition: condition, known: known)
            }
            let field = String(condition[..<equals])
            let value = String(condition[condition.index(after: equals)...])
            let syntax = PredicateSyntax.comparison(ComparisonSyntax(left: .keyPath(KeyPathSyntax(components: [field], positions: [0])),
                                                                     op: .equal, right: .value(.text(value), position: field.count + 1),
                                                                     position: field.count))
            try fetch.filter(syntax, format: condition)
        }
        if let predicate = request.predicate {
            let variables = Dictionary(request.variables.map { ($0.key, PredicateValue.text($0.value)) }, uniquingKeysWith: { _, last in last })
            try fetch.filter(format: predicate, arguments: request.arguments.map { .text($0) }, variables: variables)
        }
        if let sort = request.sort { try fetch.sort(by: sort) }
        return fetch
    }

    /// The query listing `feed`'s rows: `limit` rows at most (nil: all) after skipping `offset`.
    public func query(for feed: Feed, limit: Int? = nil, offset: Int = 0) throws -> Query {
        var fetch = try fetch(in: TransitModel.model(for: feed))
        fetch.limit = limit
        fetch.offset = offset
        var query = try fetch.query(selecting: fields.map(\.name)).query
        query.selection.insert(SelectedProperty(.value(feed.name), as: "feed"), at: 0)
        return query
    }
}
