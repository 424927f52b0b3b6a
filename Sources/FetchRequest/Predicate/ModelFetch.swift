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
    /// The joins the fetch's key paths made; copied before a change when another fetch shares
    /// it, so a copy of a fetch is a value of its own.
    private var root: FetchScope
    private var predicate: SQLPredicate = .all
    private var sortDescriptors: [SortDescriptor] = []
    /// Values selected by expression (`select(_:as:)`), after the key paths of `query(selecting:)`.
    private var selection: [SelectedProperty] = []
    /// At most this many rows; nil for all.
    public var limit: Int?
    /// Rows skipped first.
    public var offset = 0
    /// A substitution variable giving the limit when a prepared template runs (then `limit` is unused).
    public var limitVariable: String?
    /// When true (the default) the entity's natural order follows the sort keys, so every fetch
    /// has one order; a subquery that wants its first row by one key turns it off.
    public var breaksTiesByNaturalOrder = true

    /// A fetch of every row of `entity` (a name of `model`); nil when the model has no such entity.
    /// Its table goes by `alias` (the entity's name unless given: a fetch nested in another, as a
    /// correlated subquery, needs a name of its own).
    public init?(entity name: String, in model: ObjectModel, alias: String? = nil) {
        guard let entity = model[name] else { return nil }
        self.model = model
        self.entity = entity
        root = FetchScope(entity: entity, alias: alias ?? entity.name, parent: nil)
    }

    /// The scope, made this fetch's own first when a copy of the fetch shares it.
    private mutating func uniqueRoot() -> FetchScope {
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        return root
    }

    /// The value of `keyPath` — an attribute, through to-one relationships, or an aggregate of a
    /// to-many one (`trip.route.route_short_name`, `stop_times.@count`) — with the joins it
    /// crosses added to the fetch: for conditions, values and orders the format language does not
    /// write (template variables bound per run, `COALESCE`s of attributes).
    public mutating func value(_ keyPath: String) throws -> SQLExpression {
        var compiler = PredicateCompiler(model: model, format: keyPath, variables: [:])
        return try compiler.value(ofPath: keyPath, at: 0, in: uniqueRoot(), purpose: "use").expression
    }

    /// The value of `keyPath` with its last relationship read by a correlated subquery instead of
    /// a join (`trip.last_stop.stop_name`): Core Data's fault, fired only where the value is
    /// needed — as a later argument of a `COALESCE`, only for the rows whose earlier ones are
    /// NULL. The relationships before it are joined as by `value(_:)`.
    public mutating func faultedValue(_ keyPath: String) throws -> SQLExpression {
        let path = KeyPathSyntax(text: keyPath, at: 0)
        guard path.components.count >= 2 else { return try value(keyPath) }
        let compiler = PredicateCompiler(model: model, format: keyPath, variables: [:])
        let owner = try compiler.walkToOne(Array(path.components.dropLast(2)), positions: path.positions, in: uniqueRoot())
        let name = path.components[path.components.count - 2]
        guard let relationship = owner.entity.relationship(name), !relationship.isToMany,
              let destination = model[relationship.destination] else {
            throw PredicateFormatError("\(name) is not a to-one relationship of \(owner.entity.name)", in: keyPath,
                                       at: path.positions[path.components.count - 2])
        }
        guard var fault = ModelFetch(entity: destination.name, in: model, alias: owner.alias + "." + relationship.name) else {
            throw PredicateFormatError("internal: relationship \(name) leads to unknown entity \(destination.name)", in: keyPath, at: 0)
        }
        let attribute = try fault.value(path.components[path.components.count - 1])
        var query = Query(table: destination.table, alias: fault.root.alias)
        for join in fault.root.joins { query = query.joining(join) }
        query = query.filter(Column(relationship.destinationColumn, of: fault.root.alias) == Column(relationship.sourceColumn, of: owner.alias))
        return .subquery(query.select([SelectedProperty(attribute)]))
    }

    /// A fetch of the rows that the to-many relationship at the end of `keyPath` relates to each
    /// row of this one (`trip.stop_times`: the stop times of a stop time's trip), for a
    /// correlated subquery: its table goes by the path's alias (`stop_times.trip.stop_times`),
    /// and it is already restricted to the related rows, in no order but the one it is given
    /// (`breaksTiesByNaturalOrder` is off). The relationships before the last are joined to this
    /// fetch as by `value(_:)`.
    public mutating func related(_ keyPath: String) throws -> ModelFetch {
        let path = KeyPathSyntax(text: keyPath, at: 0)
        let compiler = PredicateCompiler(model: model, format: keyPath, variables: [:])
        let owner = try compiler.walkToOne(Array(path.components.dropLast()), positions: path.positions, in: uniqueRoot())
        let name = path.components[path.components.count - 1]
        guard let relationship = owner.entity.relationship(name), relationship.isToMany, let destination = model[relationship.destination],
              var related = ModelFetch(entity: destination.name, in: model, alias: owner.alias + "." + name) else {
            throw PredicateFormatError("\(name) is not a to-many relationship of \(owner.entity.name)", in: keyPath,
                                       at: path.positions[path.components.count - 1])
        }
        related.filter(related.column(relationship.destinationColumn) == Column(relationship.sourceColumn, of: owner.alias))
        related.breaksTiesByNaturalOrder = false
        return related
    }

    /// Fetches one row per related row of the to-many relationship at the end of `keyPath` (an
    /// inner join: rows with none are left out), so that key paths through it
    /// (`trip.frequencies.headway_secs`) read the related row's attributes as `value(_:)`s.
    /// For requests that compute from each pair of rows (a stop time and each period of its trip).
    public mutating func expand(_ keyPath: String) throws {
        let path = KeyPathSyntax(text: keyPath, at: 0)
        let compiler = PredicateCompiler(model: model, format: keyPath, variables: [:])
        let owner = try compiler.walkToOne(Array(path.components.dropLast()), positions: path.positions, in: uniqueRoot())
        let name = path.components[path.components.count - 1]
        guard let relationship = owner.entity.relationship(name), relationship.isToMany else {
            throw PredicateFormatError("\(name) is not a to-many relationship of \(owner.entity.name)", in: keyPath,
                                       at: path.positions[path.components.count - 1])
        }
        root.expanded.insert(owner.alias + "." + name)
    }

    /// Also selects `expression` (built from `value(_:)`s), named `name`, after the key paths
    /// `query(selecting:)` is given.
    public mutating func select(_ expression: SQLExpression, as name: String) {
        selection.append(SelectedProperty(expression, as: name))
    }

    /// Also sorts by `descriptors` (built from `value(_:)`s), after the keys already given.
    public mutating func sort(by descriptors: [SortDescriptor]) {
        sortDescriptors += descriptors
    }

    /// The query (`query(selecting:)` with no key paths): what `select(_:as:)` chose, or every
    /// column when nothing was chosen.
    public func query() throws -> Query {
        try query(selecting: []).query
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
        predicate = predicate && (try compiler.predicate(syntax, in: uniqueRoot()))
    }

    /// A column of the fetched entity's own table (keys the model does not name as attributes),
    /// for `filter(_:)` and `query(selecting:columns:)`.
    public func column(_ name: String) -> SQLExpression {
        Column(name, of: root.alias)
    }

    /// A column the model does not name as an attribute, of the table the to-one relationships
    /// of `keyPath` lead to (`trip.last_stop_sequence`: the trip's), joining them.
    public mutating func column(at keyPath: String) throws -> SQLExpression {
        let compiler = PredicateCompiler(model: model, format: keyPath, variables: [:])
        return try compiler.column(at: KeyPathSyntax(text: keyPath, at: 0), in: uniqueRoot())
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
            let (expression, _) = try compiler.value(ofPath: path, at: start, in: uniqueRoot(), purpose: "sort by")
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
        // The selected key paths' joins go into a copy: building a query leaves the fetch as it is.
        let root = self.root.copy()
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
        query.sortDescriptors = sortDescriptors + (breaksTiesByNaturalOrder ? entity.naturalOrder.map { Column($0, of: root.alias).ascending } : [])
        query.selection = selection + self.selection
        query.limit = limit
        query.offset = offset
        query.limitVariable = limitVariable
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
    /// The aliases of to-many relationships joined as rows (`ModelFetch.expand(_:)`), whose
    /// attributes key paths then read like a to-one relationship's.
    var expanded: Set<String> = []
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

    /// A scope with the same joins, expansions and variable, changed apart from this one.
    func copy() -> FetchScope {
        let copy = FetchScope(entity: entity, alias: alias, parent: parent)
        copy.joins = joins
        copy.joined = joined
        copy.expanded = expanded
        copy.variable = variable
        copy.elements = elements
        return copy
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
        // Positions count characters; in ASCII text (every key path the code writes) a byte is one.
        var offset = position
        var start = text.utf8.startIndex
        var characters = 0
        for index in text.utf8.indices {
            let byte = text.utf8[index]
            if byte == UInt8(ascii: ".") {
                let part = text[start..<index]
                components.append(String(part))
                positions.append(offset)
                offset += (characters == part.utf8.count ? characters : part.count) + 1
                start = text.utf8.index(after: index)
                characters = 0
            } else if byte < 0x80 || byte >= 0xC0 {
                characters += 1
            }
        }
        components.append(String(text[start...]))
        positions.append(offset)
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
