/// A fetch written in a model's terms — an entity, a predicate string, sort key paths, the key
/// paths to select — compiled into one `Query` whose every value is bound.
///
/// This is Core Data's `NSFetchRequest(entityName:)` with `NSPredicate(format:)`: key paths cross
/// to-one relationships as `LEFT JOIN`s (one per distinct path, aliased by it:
/// `"trips.route"."route_short_name"`), and to-many ones, which need `ANY`/`ALL`/`NONE`, an
/// aggregate (`stop_times.@count`) or `SUBQUERY(…).@count`, become correlated `EXISTS`/`COUNT`
/// subqueries on the relationship's key, which the destination's index answers.
///
///     var fetch = try ModelFetch(entity: "routes", in: model)
///     try fetch.filter(format: "ANY trips.stop_times.stop.stop_name BEGINSWITH[cd] %@", arguments: [.text("gorli")])
///     try fetch.sort(by: "route_short_name")
///     let query = try fetch.query(selecting: ["route_id", "route_short_name"])
public struct ModelFetch {
    /// The model the fetch is checked against.
    public let model: ObjectModel
    /// The entity fetched.
    public let entity: EntityDescription
    private let root: FetchScope
    private var predicate: SQLPredicate = .all
    private var sortDescriptors: [SortDescriptor] = []
    /// At most this many rows; nil for all.
    public var limit: Int?
    /// Rows skipped first.
    public var offset = 0

    /// A fetch of every row of `entity` (a name of `model`); nil when the model has no such entity.
    public init?(entity name: String, in model: ObjectModel) {
        guard let entity = model[name] else { return nil }
        self.model = model
        self.entity = entity
        root = FetchScope(entity: entity, alias: entity.name, parent: nil)
    }

    /// Also requires the predicate `format` (an `NSPredicate` format string): `%@` and `%K` take
    /// `arguments` in order, `$NAME` takes `variables[NAME]`. Mistakes throw `PredicateFormatError`, with
    /// the place in `format`.
    public mutating func filter(format: String, arguments: [PredicateValue] = [], variables: [String: PredicateValue] = [:]) throws {
        let syntax = try PredicateParser.parse(format, arguments: arguments)
        try filter(syntax, format: format, variables: variables)
    }

    /// Also requires an already parsed predicate (`format` is its text, for error messages).
    public mutating func filter(_ syntax: PredicateSyntax, format: String, variables: [String: PredicateValue] = [:]) throws {
        var compiler = PredicateCompiler(model: model, format: format, variables: variables)
        predicate = predicate && (try compiler.predicate(syntax, in: root))
    }

    /// A column of the fetched entity's own table (keys the model does not name as attributes),
    /// for `filter(_:)` and `query(selecting:columns:)`.
    public func column(_ name: String) -> SQLExpression {
        Column(name, of: root.alias)
    }

    /// Also requires `predicate`, built on `column(_:)`s.
    public mutating func filter(_ predicate: SQLPredicate) {
        self.predicate = self.predicate && predicate
    }

    /// Sorts by key paths separated by commas, each descending when it starts with `-`
    /// (`-departure_time,trip_id`); the entity's natural order breaks ties.
    public mutating func sort(by keys: String) throws {
        var compiler = PredicateCompiler(model: model, format: keys, variables: [:])
        var position = 0
        for key in keys.split(separator: ",", omittingEmptySubsequences: false) {
            let text = key.drop { $0 == " " }
            var start = position + (key.count - text.count)
            defer { position += key.count + 1 }
            var path = String(text).trimmingTrailingSpaces
            var ascending = true
            if path.hasPrefix("-") {
                ascending = false
                path.removeFirst()
                start += 1
            } else if path.hasPrefix("+") {
                path.removeFirst()
                start += 1
            }
            guard !path.isEmpty else {
                throw PredicateFormatError("expected a key path to sort by (KEY or -KEY, separated by commas)", in: keys, at: start)
            }
            let (expression, _) = try compiler.value(ofPath: path, at: start, in: root, purpose: "sort by")
            sortDescriptors.append(SortDescriptor(expression, ascending: ascending))
        }
    }

    /// The query: the entity's rows (in its scope) meeting every filter, sorted, selecting the
    /// values of `keyPaths`, each named after its key path. Returns the selected values' types too.
    /// A key path may end in an aggregate (`trips.@count`, `stop_times.@max.departure_time`).
    /// `columns` adds columns the model does not name as attributes (keys), of the entity's own
    /// table or of one its to-one relationships lead to (`trip.route`), each named as written.
    public func query(selecting keyPaths: [String], columns: [String] = []) throws -> (query: Query, types: [AttributeType]) {
        var compiler = PredicateCompiler(model: model, format: keyPaths.joined(separator: ","), variables: [:])
        var selection: [SelectedProperty] = []
        var types: [AttributeType] = []
        for path in keyPaths {
            let (expression, type) = try compiler.value(ofPath: path, at: 0, in: root, purpose: "select")
            selection.append(SelectedProperty(expression, as: path))
            types.append(type)
        }
        for name in columns {
            selection.append(SelectedProperty(try compiler.column(at: KeyPathSyntax(text: name, at: 0), in: root), as: name))
            types.append(.integer)
        }
        var query = Query(table: entity.table, alias: root.alias)
        for join in root.joins { query = query.joining(join) }
        if let scope = entity.scope { query = query.filter(scope(root.alias)) }
        query = query.filter(predicate)
        query.sortDescriptors = sortDescriptors + entity.naturalOrder.map { Column($0, of: root.alias).ascending }
        query.selection = selection
        query.limit = limit
        query.offset = offset
        return (query, types)
    }
}

/// One level of a query being compiled: the root fetch or a subquery. Holds the joins its key
/// paths needed, one per distinct path, and the SUBQUERY variable naming its elements, if any.
final class FetchScope {
    let entity: EntityDescription
    let alias: String
    let parent: FetchScope?
    private(set) var joins: [Join] = []
    private var joined: Set<String> = []
    /// `$x` of a `SUBQUERY(…, $x, …)` and the rows it stands for.
    private var variable: (name: String, entity: EntityDescription, alias: String)?
    /// The rows bare key paths start from: the table's own, or a collection's last relationship's.
    var elements: (entity: EntityDescription, alias: String)

    init(entity: EntityDescription, alias: String, parent: FetchScope?) {
        self.entity = entity
        self.alias = alias
        self.parent = parent
        elements = (entity, alias)
    }

    /// Joins `relationship` from the table aliased `from` (once per alias) and returns its alias.
    func join(_ relationship: RelationshipDescription, to destination: EntityDescription, from alias: String, kind: Join.Kind) -> String {
        let joinedAlias = alias + "." + relationship.name
        if joined.insert(joinedAlias).inserted {
            joins.append(Join(kind, table: destination.table, as: joinedAlias,
                              on: Column(relationship.destinationColumn, of: joinedAlias) == Column(relationship.sourceColumn, of: alias)))
        }
        return joinedAlias
    }

    /// Makes `$name` stand for the rows of `entity` aliased `alias` in this scope.
    func bind(_ name: String, to entity: EntityDescription, alias: String) {
        variable = (name, entity, alias)
    }

    /// The scope `$name` is bound in (here or in an enclosing SUBQUERY) and the rows it stands for.
    func scope(ofVariable name: String) -> (FetchScope, (entity: EntityDescription, alias: String))? {
        if let variable, variable.name == name { return (self, (variable.entity, variable.alias)) }
        return parent?.scope(ofVariable: name)
    }
}

extension KeyPathSyntax {
    /// A key path written as dotted text starting at `position` (sort keys, selections).
    init(text: String, at position: Int) {
        var components: [String] = []
        var positions: [Int] = []
        var offset = position
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            components.append(String(part))
            positions.append(offset)
            offset += part.count + 1
        }
        self.init(components: components, positions: positions)
    }
}

extension String {
    /// The text without trailing spaces.
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

extension FetchRequest {
    /// A request for the `Record`s for which the predicate `format` holds, checked against the
    /// entity of `model` stored in `Record`'s table: Core Data's
    /// `NSFetchRequest` with `NSPredicate(format:argumentArray:)`. The string is parsed into the
    /// same predicate values as a `--predicate`, so key paths, placeholders, variables and their
    /// mistakes behave alike; the request is then refined as any other (`sorted(by:)`, limits).
    ///
    ///     let request = try FetchRequest<Stop>(format: "stop_name BEGINSWITH[cd] %@", arguments: [.text("lodz")], in: model)
    public init(format: String, arguments: [PredicateValue] = [], variables: [String: PredicateValue] = [:], in model: ObjectModel) throws {
        guard let entity = model.entities.values.first(where: { $0.table == Record.tableName }),
              var fetch = ModelFetch(entity: entity.name, in: model) else {
            throw PredicateFormatError("no entity of the model is stored in table \(Record.tableName)", in: format, at: 0)
        }
        try fetch.filter(format: format, arguments: arguments, variables: variables)
        self.init()
        query = try fetch.query(selecting: []).query
        query.selection = []
    }
}
