/// Turns `PredicateSyntax` into an `SQLPredicate` over a model entity: key paths into columns and
/// joins, to-many key paths into correlated subqueries, values typed by the attributes they meet.
/// Every value is bound; identifiers come only from the model.
struct PredicateCompiler {
    let model: ObjectModel
    /// The text the syntax came from, for error messages.
    let format: String
    /// `$NAME` values.
    let variables: [String: PredicateValue]
    /// Subqueries nest at most this deep (SUBQUERY inside SUBQUERY…).
    private var depth = 0
    /// The aliases SUBQUERY variables' tables got, so a nested one reusing a name gets its own.
    private var variableAliases: Set<String> = []
    /// At most this many predicates in one AND or OR (SQLite's expression tree has a depth limit).
    static let maximumTerms = 500

    init(model: ObjectModel, format: String, variables: [String: PredicateValue]) {
        self.model = model
        self.format = format
        self.variables = variables
    }

    private func error(_ message: String, at position: Int) -> PredicateFormatError {
        PredicateFormatError(message, in: format, at: position)
    }

    // MARK: Predicates

    mutating func predicate(_ syntax: PredicateSyntax, in scope: FetchScope) throws -> SQLPredicate {
        switch syntax {
        case .constant(let value, _):
            return value ? .all : .none
        case .not(let inner, _):
            // A comparison with a missing value is false, so its negation is true (Core Data's
            // reading), where SQL's NOT would keep it unknown and drop the row.
            return .isNotTrue(try predicate(inner, in: scope))
        case .and(let parts):
            try checkTermCount(parts, "AND")
            return .allOf(try parts.map { try predicate($0, in: scope) })
        case .or(let parts):
            try checkTermCount(parts, "OR")
            return .anyOf(try parts.map { try predicate($0, in: scope) })
        case .comparison(let comparison):
            return try self.comparison(comparison, in: scope)
        }
    }

    private func checkTermCount(_ parts: [PredicateSyntax], _ word: String) throws {
        guard parts.count > Self.maximumTerms else { return }
        let position: Int
        if case .comparison(let comparison) = parts[Self.maximumTerms] { position = comparison.left.position } else { position = 0 }
        throw error("more than \(Self.maximumTerms) predicates joined by \(word): use IN {a, b, …} for many values of one key", at: position)
    }

    /// A comparison as SQL: with its key path (or aggregate) put on the left, compared as an
    /// attribute, as the related rows of a to-many key path, or as an aggregate of them.
    private mutating func comparison(_ syntax: ComparisonSyntax, in scope: FetchScope) throws -> SQLPredicate {
        let syntax = try withSubjectOnLeft(syntax, in: scope)
        switch syntax.left {
        case .keyPath(let keyPath):
            return try keyPathComparison(keyPath, syntax, in: scope)
        case .aggregate(let function, let collection, let attribute, let position):
            return try aggregateComparison(function, collection, attribute, position: position, syntax, in: scope)
        default:
            throw error("expected a key path", at: syntax.left.position)
        }
    }

    /// `syntax` with the key path (or aggregate) on the left: a value written there swaps sides,
    /// the operator mirrored (`5 < x` is `x > 5`). Refuses MATCHES, and a comparison of two values.
    private func withSubjectOnLeft(_ syntax: ComparisonSyntax, in scope: FetchScope) throws -> ComparisonSyntax {
        var syntax = syntax
        if syntax.op == .matches {
            throw error("MATCHES (regular expressions) is not supported: use LIKE with * and ? wildcards, or BEGINSWITH, ENDSWITH, CONTAINS", at: syntax.position)
        }
        if !syntax.left.isSubject {
            guard syntax.right.isSubject else {
                throw error("a comparison needs a key path on one side (an attribute of \(scope.entity.name)): \(scope.entity.keyDescription)", at: syntax.left.position)
            }
            guard let mirrored = syntax.op.mirrored else {
                throw error("put the key path on the left of \(syntax.op.rawValue)", at: syntax.position)
            }
            (syntax.left, syntax.right) = (syntax.right, syntax.left)
            syntax.op = mirrored
        }
        return syntax
    }

    /// A comparison of the attribute `keyPath` ends at; when it crosses a to-many relationship,
    /// of the related rows (ANY, ALL or NONE of them) as a correlated EXISTS.
    private mutating func keyPathComparison(_ keyPath: KeyPathSyntax, _ syntax: ComparisonSyntax, in scope: FetchScope) throws -> SQLPredicate {
        switch try resolve(keyPath, in: scope) {
        case .value(let expression, let type, let name):
            let condition = try compare(expression, type, name, syntax, in: scope)
            return syntax.quantifier == Quantifier.none ? .isNotTrue(condition) : condition
        case .toMany(let index, let outer, let alias, let relationship):
            guard let quantifier = syntax.quantifier else {
                throw error("\(relationship.name) is a to-many relationship of \(outer.entity.name): say ANY, ALL or NONE before the key path, or use an aggregate such as \(relationship.name).@count",
                            at: keyPath.positions[index])
            }
            guard index < keyPath.components.count - 1 else {
                throw error("\(relationship.name) is a to-many relationship of \(outer.entity.name): compare one of its attributes (\(relationship.name).ATTRIBUTE)",
                            at: keyPath.positions[index])
            }
            let inner = try collection(keyPath, toManyAt: index, from: alias, in: scope, relationship: relationship,
                                       throughEnd: false, variable: nil)
            guard case .value(let expression, let type, let name) = try resolve(keyPath, from: inner.resolvedIndex, entity: inner.entity,
                                                                                alias: inner.alias, in: inner.scope, allowingToMany: true) else {
                throw error("internal: a to-many key path did not end at an attribute", at: keyPath.position)
            }
            let condition = try compare(expression, type, name, syntax, in: scope)
            let rows = { (filter: SQLPredicate) in inner.query.filter(filter) }
            switch quantifier {
            case .any: return .exists(rows(condition))
            case .none: return !.exists(rows(condition))
            case .all: return !.exists(rows(SQLExpression.when(condition, then: .value(1), else: .value(0)) == 0))
            }
        }
    }

    /// A comparison of an aggregate (`stop_times.@count > 3`); `@count` against none or some
    /// (`== 0`, `> 0`) as whether a related row exists, which stops at the first.
    private mutating func aggregateComparison(_ function: AggregateFunction, _ collection: ExpressionSyntax, _ attribute: KeyPathSyntax?,
                                              position: Int, _ syntax: ComparisonSyntax, in scope: FetchScope) throws -> SQLPredicate {
        if let quantifier = syntax.quantifier {
            throw error("\(quantifier.rawValue) goes before a to-many key path, not before an aggregate (\(function.rawValue) already takes all the related rows)",
                        at: position)
        }
        if function == .count, let exists = syntax.existence {
            let rows = try countedRows(collection, position: position, in: scope)
            return exists ? .exists(rows) : !.exists(rows)
        }
        let (expression, type) = try aggregate(function, collection, attribute, position: position, in: scope)
        return try compare(expression, type, function.rawValue, syntax, in: scope)
    }

    /// `expression op right` for an attribute of `type` named `name`.
    private mutating func compare(_ expression: SQLExpression, _ type: AttributeType, _ name: String, _ syntax: ComparisonSyntax,
                                  in scope: FetchScope) throws -> SQLPredicate {
        let options = syntax.options
        if !options.isEmpty, case .text = type {} else if !options.isEmpty {
            throw error("[c] and [d] apply to text; \(name) is \(type.expectation)", at: syntax.position)
        }
        let subject = options.isEmpty ? expression : expression.folded(options)
        switch syntax.op {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            return try ordering(expression, subject, type, name, syntax, in: scope)
        case .beginsWith, .endsWith, .contains, .like:
            return try textMatch(expression, subject, type, name, syntax, in: scope)
        case .in:
            return try membership(expression, subject, type, name, syntax, in: scope)
        case .between:
            return try betweenBounds(subject, type, name, syntax, in: scope)
        case .matches:
            throw error("MATCHES is not supported", at: syntax.position)
        }
    }

    /// `==`, `!=`, `<`, `<=`, `>`, `>=` of `subject` (`expression` folded for `[c]`/`[d]`);
    /// against nil, whether the value is missing.
    private mutating func ordering(_ expression: SQLExpression, _ subject: SQLExpression, _ type: AttributeType, _ name: String,
                                   _ syntax: ComparisonSyntax, in scope: FetchScope) throws -> SQLPredicate {
        let other = try operand(syntax.right, for: type, name, options: syntax.options, in: scope)
        if case .constant(.null) = other {
            switch syntax.op {
            case .equal: return expression.isNull
            case .notEqual: return expression.isNotNull
            default: throw error("nil compares only with == or !=", at: syntax.right.position)
            }
        }
        let right = other.expression
        switch syntax.op {
        case .equal: return subject == right
        // A missing value differs from every value (IS NOT, where <> would give unknown).
        case .notEqual: return SQLPredicate(.comparison(subject, .isNot, right))
        case .less: return subject < right
        case .lessOrEqual: return subject <= right
        case .greater: return subject > right
        default: return subject >= right
        }
    }

    /// BEGINSWITH, ENDSWITH, CONTAINS and LIKE of a text attribute as GLOB patterns (BEGINSWITH
    /// without options as a range, which an index can serve).
    private mutating func textMatch(_ expression: SQLExpression, _ subject: SQLExpression, _ type: AttributeType, _ name: String,
                                    _ syntax: ComparisonSyntax, in scope: FetchScope) throws -> SQLPredicate {
        let options = syntax.options
        guard case .text = type else {
            throw error("\(syntax.op.rawValue) compares text; \(name) is \(type.expectation)", at: syntax.position)
        }
        guard case .constant(.text(let text)) = try operand(syntax.right, for: .text, name, options: options, in: scope) else {
            throw error("\(syntax.op.rawValue) needs a text value on its right (a quoted string, %@ or $VARIABLE)", at: syntax.right.position)
        }
        let escaped = SQLPredicate.globEscaped(text)
        switch syntax.op {
        case .beginsWith where options.isEmpty: return expression.beginsWith(text)
        case .beginsWith: return subject.glob(escaped + "*")
        case .endsWith: return subject.glob("*" + escaped)
        case .contains: return subject.glob("*" + escaped + "*")
        default: return subject.glob(Self.globPattern(fromLike: text))
        }
    }

    /// `IN {a, b, …}` (or `IN` one value); nil in the list matches a missing value, as `== nil` does.
    private mutating func membership(_ expression: SQLExpression, _ subject: SQLExpression, _ type: AttributeType, _ name: String,
                                     _ syntax: ComparisonSyntax, in scope: FetchScope) throws -> SQLPredicate {
        let elements: [ExpressionSyntax]
        if case .list(let list, _) = syntax.right { elements = list } else { elements = [syntax.right] }
        var values: [SQLValue] = []
        var includesNil = false
        for element in elements {
            guard case .constant(let value) = try operand(element, for: type, name, options: syntax.options, in: scope) else {
                throw error("IN takes a list of values: {a, b, …}", at: element.position)
            }
            if value == .null { includesNil = true } else { values.append(value) }
        }
        return includesNil ? expression.isNull || subject.isIn(values) : subject.isIn(values)
    }

    /// `BETWEEN {low, high}`, both bounds given (neither nil).
    private mutating func betweenBounds(_ subject: SQLExpression, _ type: AttributeType, _ name: String,
                                        _ syntax: ComparisonSyntax, in scope: FetchScope) throws -> SQLPredicate {
        guard case .list(let bounds, _) = syntax.right, bounds.count == 2 else {
            throw error("BETWEEN takes two bounds: {low, high}", at: syntax.right.position)
        }
        var values: [SQLExpression] = []
        for bound in bounds {
            let other = try operand(bound, for: type, name, options: syntax.options, in: scope)
            if case .constant(.null) = other { throw error("BETWEEN's bounds cannot be nil", at: bound.position) }
            values.append(other.expression)
        }
        return subject.between(values[0], and: values[1])
    }

    /// The other side of a comparison: a value typed as the attribute (folded for `[c]`/`[d]`), or
    /// another key path or aggregate.
    private enum Operand {
        case constant(SQLValue)
        case computed(SQLExpression)

        var expression: SQLExpression {
            switch self {
            case .constant(let value): return .value(value)
            case .computed(let expression): return expression
            }
        }
    }

    private mutating func operand(_ syntax: ExpressionSyntax, for type: AttributeType, _ name: String, options: StringOptions,
                                  in scope: FetchScope) throws -> Operand {
        switch syntax {
        case .value(let value, let position):
            return .constant(try typed(value, as: type, name, options: options, at: position))
        case .variable(let variable, let position):
            guard let value = variables[variable] else {
                throw error("no value for $\(variable): give it (--var \(variable)=VALUE)", at: position)
            }
            return .constant(try typed(value, as: type, name, options: options, at: position))
        case .keyPath(let keyPath):
            let (expression, _) = try value(of: keyPath, in: scope, purpose: "compare with")
            return .computed(options.isEmpty ? expression : expression.folded(options))
        case .aggregate(let function, let collection, let attribute, let position):
            return .computed(try aggregate(function, collection, attribute, position: position, in: scope).expression)
        case .list(_, let position):
            throw error("a list {…} goes only after IN or BETWEEN", at: position)
        case .subquery(_, _, _, let position):
            throw error("SUBQUERY(…) must be followed by .@count", at: position)
        }
    }

    /// `value` as the attribute stores it; text folded when `options` say so.
    private func typed(_ value: PredicateValue, as type: AttributeType, _ name: String, options: StringOptions, at position: Int) throws -> SQLValue {
        if case .null = value { return .null }
        let stored: SQLValue?
        switch type {
        case .text: stored = storedText(value, options: options)
        case .integer: stored = Self.storedInteger(value)
        case .real: stored = Self.storedReal(value)
        case .boolean: stored = Self.storedBoolean(value)
        case .enumeration(let names): stored = Self.storedCode(value, names: names)
        case .converted(_, let read): stored = Self.storedConverted(value, read: read)
        }
        guard let stored else { throw error("\(name) takes \(type.expectation); got \(value.written)", at: position) }
        return stored
    }

    /// A text attribute's value: text, or a number as written; nil for a truth value.
    private func storedText(_ value: PredicateValue, options: StringOptions) -> SQLValue? {
        let text: String
        switch value {
        case .text(let string): text = string
        case .integer(let number): text = String(number)
        case .real(let number): text = String(number)
        case .bool, .null: return nil
        }
        return .text(options.isEmpty ? text : model.folding(text, options))
    }

    /// An integer attribute's value: a whole number (a real one exactly), integer text, or a truth value as 1 or 0.
    private static func storedInteger(_ value: PredicateValue) -> SQLValue? {
        switch value {
        case .integer(let number): return .integer(Int64(number))
        case .real(let number) where number.rounded() == number && abs(number) < 9e15: return .integer(Int64(number))
        case .text(let string): if let number = Int64(string) { return .integer(number) }
        case .bool(let flag): return .integer(flag ? 1 : 0)
        default: break
        }
        return nil
    }

    /// A real attribute's value: a number, or finite number text.
    private static func storedReal(_ value: PredicateValue) -> SQLValue? {
        switch value {
        case .integer(let number): return .real(Double(number))
        case .real(let number): return .real(number)
        case .text(let string): if let number = Double(string), number.isFinite { return .real(number) }
        default: break
        }
        return nil
    }

    /// A boolean attribute's value (1 or 0): a truth value, 0 or 1, or true/yes/1 and false/no/0 as text.
    private static func storedBoolean(_ value: PredicateValue) -> SQLValue? {
        switch value {
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .integer(let number) where number == 0 || number == 1: return .integer(Int64(number))
        case .text(let string):
            switch string.lowercased() {
            case "true", "yes", "1": return .integer(1)
            case "false", "no", "0": return .integer(0)
            default: break
            }
        default: break
        }
        return nil
    }

    /// An enumeration's stored code: a number, number text, or one of its `names` (any case).
    private static func storedCode(_ value: PredicateValue, names: [String: Int]) -> SQLValue? {
        switch value {
        case .integer(let number): return .integer(Int64(number))
        case .text(let string):
            if let number = Int64(string) { return .integer(number) }
            if let code = names[string.lowercased()] { return .integer(Int64(code)) }
        default: break
        }
        return nil
    }

    /// A converted attribute's stored form: text `read` understands, or a number, the stored
    /// form itself (seconds of a GTFS time, yyyymmdd of a date).
    private static func storedConverted(_ value: PredicateValue, read: (String) -> SQLValue?) -> SQLValue? {
        switch value {
        case .text(let string): if let stored = read(string) { return stored }
        case .integer(let number): return .integer(Int64(number))
        default: break
        }
        return nil
    }

    /// An NSPredicate LIKE pattern (`*` any run, `?` one character) as a GLOB pattern.
    static func globPattern(fromLike pattern: String) -> String {
        var glob = ""
        for character in pattern {
            switch character {
            case "*", "?": glob.append(character)
            case "[": glob += "[[]"
            default: glob.append(character)
            }
        }
        return glob
    }

    // MARK: Key paths

    /// What a key path ends at.
    enum Resolution {
        /// An attribute (or a to-one relationship standing for its identifier).
        case value(SQLExpression, AttributeType, name: String)
        /// The path crosses a to-many relationship at component `index`, from the table `alias`
        /// (an entity of `scope`'s query).
        case toMany(index: Int, scope: FetchScope, alias: String, relationship: RelationshipDescription)
    }

    /// The value of `keyPath` (attributes and to-one relationships only), for sorting, selecting
    /// or comparing two key paths.
    mutating func value(of keyPath: KeyPathSyntax, in scope: FetchScope, purpose: String) throws -> (expression: SQLExpression, type: AttributeType) {
        switch try resolve(keyPath, in: scope) {
        case .value(let expression, let type, _):
            return (expression, type)
        case .toMany(let index, let outer, _, let relationship):
            throw error("cannot \(purpose) \(relationship.name): a to-many relationship of \(outer.entity.name) has many values (an aggregate such as \(relationship.name).@count has one)",
                        at: keyPath.positions[index])
        }
    }

    /// A column of the table a key path's to-one relationships lead to (`trip.route`: the
    /// trip's `route` column), for keys the model does not name as attributes.
    func column(at keyPath: KeyPathSyntax, in scope: FetchScope) throws -> SQLExpression {
        let owner = try walkToOne(Array(keyPath.components.dropLast()), positions: keyPath.positions, in: scope)
        return Column(keyPath.components.last ?? "", of: owner.alias)
    }

    /// Joins the to-one relationships named by `components` from `scope`'s table (inner joins
    /// while they are required, left joins from the first optional one on) and returns the
    /// entity and alias they lead to.
    func walkToOne(_ components: [String], positions: [Int], in scope: FetchScope) throws -> (entity: EntityDescription, alias: String) {
        var entity = scope.entity
        var alias = scope.alias
        var optional = false
        for (index, name) in components.enumerated() {
            guard let relationship = entity.relationship(name), !relationship.isToMany, let destination = model[relationship.destination] else {
                throw error("\(name) is not a to-one relationship of \(entity.name)", at: positions[index])
            }
            let kind: Join.Kind = relationship.isRequired && !optional ? .inner : .left
            if kind == .left { optional = true }
            alias = scope.join(relationship, to: destination, from: alias, kind: kind)
            entity = destination
        }
        return (entity, alias)
    }

    /// The value of a key path written as text at `position` of the format, which may end in an
    /// aggregate (`trips.@count`, `stop_times.@max.departure_time`): for sorting and selecting.
    mutating func value(ofPath path: String, at position: Int, in scope: FetchScope, purpose: String) throws -> (expression: SQLExpression, type: AttributeType) {
        let keyPath = KeyPathSyntax(text: path, at: position)
        guard let operatorIndex = keyPath.components.firstIndex(where: { $0.hasPrefix("@") }) else {
            return try value(of: keyPath, in: scope, purpose: purpose)
        }
        guard operatorIndex > 0, let function = AggregateFunction(rawValue: keyPath.components[operatorIndex]) else {
            throw error("expected a key path, or a to-many one with @count, @sum, @min, @max or @avg", at: keyPath.positions[operatorIndex])
        }
        let collection = KeyPathSyntax(components: Array(keyPath.components[..<operatorIndex]), positions: Array(keyPath.positions[..<operatorIndex]))
        let rest = operatorIndex + 1 < keyPath.components.count
            ? KeyPathSyntax(components: Array(keyPath.components[(operatorIndex + 1)...]), positions: Array(keyPath.positions[(operatorIndex + 1)...]))
            : nil
        return try aggregate(function, .keyPath(collection), rest, position: keyPath.positions[operatorIndex], in: scope)
    }

    func resolve(_ keyPath: KeyPathSyntax, in scope: FetchScope) throws -> Resolution {
        // A bare key path is the rows' own: the root's, or a SUBQUERY's elements.
        try resolve(keyPath, from: 0, entity: scope.elements.entity, alias: scope.elements.alias, in: scope, allowingToMany: false)
    }

    /// Walks `keyPath` from component `start`, at `entity` aliased `alias`: to-one relationships
    /// are joined in `scope` (left joins); to-many ones stop the walk, or, when `allowingToMany`
    /// (inside a subquery), are joined too (inner joins: one row per related row).
    func resolve(_ keyPath: KeyPathSyntax, from start: Int, entity start0: EntityDescription, alias start1: String, in scope: FetchScope,
                 allowingToMany: Bool) throws -> Resolution {
        var entity = start0
        var alias = start1
        var joinScope = scope
        var index = start
        // After a left join (an optional relationship), every later join on the path is a left
        // join too, or rows without the optional one would be dropped.
        var optional = false
        let components = keyPath.components
        guard index < components.count, !components[index].isEmpty else {
            throw error("expected a key path", at: keyPath.positions.indices.contains(index) ? keyPath.positions[index] : keyPath.position)
        }
        if components[index].hasPrefix("$") {
            (entity, alias, joinScope) = try variableRows(keyPath, at: index, in: scope)
            index += 1
        }
        while index < components.count {
            let name = components[index]
            let position = keyPath.positions[index]
            let isLast = index == components.count - 1
            // A name that is both (stops.parent_station) is the attribute at the end, the relationship before more.
            if let attribute = entity.attribute(name), isLast || entity.relationship(name) == nil {
                guard isLast else {
                    throw error("\(name) is an attribute of \(entity.name), not a relationship: nothing can follow it", at: keyPath.positions[index + 1])
                }
                return try value(of: attribute, named: name, at: position, on: entity, alias: alias, in: joinScope)
            }
            guard let relationship = entity.relationship(name) else {
                throw error("\(entity.name) has no attribute or relationship '\(name)'; \(entity.keyDescription)", at: position)
            }
            guard let destination = model[relationship.destination] else {
                throw error("internal: relationship \(name) leads to unknown entity \(relationship.destination)", at: position)
            }
            if relationship.isToMany && !allowingToMany && !joinScope.expanded.contains(alias + "." + relationship.name) {
                return .toMany(index: index, scope: joinScope, alias: alias, relationship: relationship)
            }
            let kind: Join.Kind = relationship.isToMany || (relationship.isRequired && !optional) ? .inner : .left
            if kind == .left { optional = true }
            alias = joinScope.join(relationship, to: destination, from: alias, kind: kind)
            entity = destination
            if isLast {
                guard !relationship.isToMany, let identifier = relationship.identifier, let attribute = destination.attribute(identifier),
                      case .column(let column) = attribute.source else {
                    throw error("\(name) is a relationship; compare one of its attributes (\(name).ATTRIBUTE): \(destination.keyDescription)", at: position)
                }
                return .value(Column(column, of: alias), attribute.type, name: name)
            }
            index += 1
        }
        throw error("expected a key path", at: keyPath.position)
    }

    /// The rows the SUBQUERY variable `$name` at component `index` of `keyPath` stands for: their
    /// entity, their alias and the scope that binds it. Refuses a `$name` no enclosing SUBQUERY
    /// binds, and one that ends the key path.
    private func variableRows(_ keyPath: KeyPathSyntax, at index: Int, in scope: FetchScope) throws
        -> (entity: EntityDescription, alias: String, scope: FetchScope) {
        let name = String(keyPath.components[index].dropFirst())
        guard let (variableScope, elements) = scope.scope(ofVariable: name) else {
            throw error("$\(name) is not a SUBQUERY variable here; substitution variables are values and go on the right of an operator",
                        at: keyPath.positions[index])
        }
        guard index + 1 < keyPath.components.count else {
            throw error("$\(name) stands for a row of \(elements.entity.name): compare one of its attributes ($\(name).ATTRIBUTE): \(elements.entity.keyDescription)",
                        at: keyPath.positions[index])
        }
        return (elements.entity, elements.alias, variableScope)
    }

    /// The value of `attribute` (named `name`, at `position` of the format) of `entity` aliased
    /// `alias`: its column, its expression, or the key path it stands for, resolved in `scope`.
    private func value(of attribute: AttributeDescription, named name: String, at position: Int, on entity: EntityDescription, alias: String,
                       in scope: FetchScope) throws -> Resolution {
        switch attribute.source {
        case .column(let column):
            return .value(Column(column, of: alias), attribute.type, name: name)
        case .expression(let make):
            return .value(make(alias), attribute.type, name: name)
        case .keyPath(let path):
            var derived = KeyPathSyntax(text: path, at: position)
            derived.positions = Array(repeating: position, count: derived.components.count)
            guard case .value(let expression, let type, _) = try resolve(derived, from: 0, entity: entity, alias: alias, in: scope,
                                                                         allowingToMany: false) else {
                throw error("internal: attribute \(name) is not reached through to-one relationships", at: position)
            }
            return .value(expression, type, name: name)
        }
    }

    /// A correlated subquery over the rows a to-many key path reaches: its scope (holding the
    /// joins made inside it), the rows it stands for (`entity` aliased `alias`: the last
    /// relationship's, for a collection), and where the walk of the key path continues.
    struct InnerScope {
        let scope: FetchScope
        let entity: EntityDescription
        let alias: String
        /// The first component not yet walked.
        let resolvedIndex: Int
        let table: String
        let correlation: SQLPredicate

        /// The subquery, with every join its key paths made (call after resolving them).
        var query: Query {
            var query = Query(table: table, alias: scope.alias)
            for join in scope.joins { query = query.joining(join) }
            return query.filter(correlation)
        }
    }

    /// Opens a correlated subquery at the to-many relationship at `index` of `keyPath`. With
    /// `throughEnd`, the rest of the key path must be relationships (a collection:
    /// `trips.stop_times`), joined inside; the last one's rows are the elements, and `variable`
    /// (SUBQUERY's `$x`) names them.
    private mutating func collection(_ keyPath: KeyPathSyntax, toManyAt index: Int, from alias: String, in current: FetchScope,
                                     relationship: RelationshipDescription, throughEnd: Bool, variable: String?) throws -> InnerScope {
        guard let destination = model[relationship.destination] else {
            throw error("internal: relationship \(relationship.name) leads to unknown entity \(relationship.destination)", at: keyPath.positions[index])
        }
        let single = throughEnd && index == keyPath.components.count - 1
        var innerAlias = alias + "." + relationship.name
        if single, let variable {
            // `$x`, or `$x_2`… when an enclosing SUBQUERY's table is already `$x`.
            innerAlias = "$" + variable
            var suffix = 1
            while variableAliases.contains(innerAlias) {
                suffix += 1
                innerAlias = "$" + variable + "_" + String(suffix)
            }
        }
        variableAliases.insert(innerAlias)
        // The subquery sees every variable of the scopes enclosing it (its parent is the scope
        // being compiled, whichever outer row the collection starts from).
        let inner = FetchScope(entity: destination, alias: innerAlias, parent: current)
        var entity = destination
        var elementsAlias = innerAlias
        var next = index + 1
        if throughEnd {
            var optional = false
            while next < keyPath.components.count {
                let name = keyPath.components[next]
                guard let step = entity.relationship(name), let stepDestination = model[step.destination] else {
                    throw error("\(name) is not a relationship of \(entity.name): a collection is a path of relationships ending in a to-many one; \(entity.keyDescription)",
                                at: keyPath.positions[next])
                }
                let kind: Join.Kind = step.isToMany || (step.isRequired && !optional) ? .inner : .left
                if kind == .left { optional = true }
                elementsAlias = inner.join(step, to: stepDestination, from: elementsAlias, kind: kind)
                entity = stepDestination
                next += 1
            }
            inner.elements = (entity, elementsAlias)
            if let variable { inner.bind(variable, to: entity, alias: elementsAlias) }
        }
        return InnerScope(scope: inner, entity: entity, alias: elementsAlias, resolvedIndex: next, table: destination.table,
                          correlation: Column(relationship.destinationColumn, of: innerAlias) == Column(relationship.sourceColumn, of: alias))
    }

    // MARK: Aggregates

    /// `collection.@count`, `collection.@max.attribute`, `SUBQUERY(…).@count` as a correlated
    /// scalar subquery, with the type of its value.
    mutating func aggregate(_ function: AggregateFunction, _ collection: ExpressionSyntax, _ attribute: KeyPathSyntax?,
                                    position: Int, in scope: FetchScope) throws -> (expression: SQLExpression, type: AttributeType) {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 32 else { throw error("subqueries nest deeper than 32 levels", at: position) }
        let keyPath: KeyPathSyntax
        var variable: String?
        var inside: PredicateSyntax?
        switch collection {
        case .keyPath(let path):
            keyPath = path
        case .subquery(let path, let name, let predicate, _):
            keyPath = path
            variable = name
            inside = predicate
        default:
            throw error("\(function.rawValue) needs a to-many key path before it", at: position)
        }
        guard case .toMany(let index, _, let alias, let relationship) = try resolve(keyPath, in: scope) else {
            throw error("\(keyPath.text) is not a to-many relationship: \(function.rawValue) and SUBQUERY count the rows of one (stop_times.@count)",
                        at: keyPath.position)
        }
        let inner = try self.collection(keyPath, toManyAt: index, from: alias, in: scope, relationship: relationship,
                                        throughEnd: true, variable: variable)
        var filter = SQLPredicate.all
        if let inside {
            filter = try predicate(inside, in: inner.scope)
        }
        let selected: SQLExpression
        let type: AttributeType
        if function == .count {
            guard attribute == nil else { throw error("@count takes no attribute", at: position) }
            selected = countAll
            type = .integer
        } else {
            guard let attribute else {
                throw error("\(function.rawValue) needs an attribute after it (\(keyPath.text).\(function.rawValue).ATTRIBUTE)", at: position)
            }
            guard case .value(let expression, let attributeType, let name) = try resolve(attribute, from: 0, entity: inner.entity, alias: inner.alias,
                                                                                          in: inner.scope, allowingToMany: true) else {
                throw error("internal: aggregate attribute did not resolve", at: attribute.position)
            }
            switch attributeType {
            case .text, .boolean:
                if function != .min && function != .max {
                    throw error("\(function.rawValue) needs a numeric attribute; \(name) is \(attributeType.expectation)", at: attribute.position)
                }
            default: break
            }
            switch function {
            case .sum: selected = .coalesce([expression.sum, .value(0)]); type = attributeType
            case .min: selected = expression.min; type = attributeType
            case .max: selected = expression.max; type = attributeType
            default: selected = expression.average; type = .real
            }
        }
        let query = inner.query.filter(filter).select([SelectedProperty(selected)])
        return (.subquery(query), type)
    }

    /// The rows `collection.@count` (or `SUBQUERY(…).@count`) counts, as a correlated query.
    mutating func countedRows(_ collection: ExpressionSyntax, position: Int, in scope: FetchScope) throws -> Query {
        guard case .subquery(let counted) = try aggregate(.count, collection, nil, position: position, in: scope).expression.node else {
            throw error("internal: @count did not compile to a subquery", at: position)
        }
        return counted.select([SelectedProperty(.literal(1))])
    }
}

extension ComparisonSyntax {
    /// For `@count` compared with a number: true when the comparison says "at least one related
    /// row" (`> 0`, `>= 1`, `!= 0`), false for "none" (`== 0`, `<= 0`, `< 1`), nil otherwise.
    var existence: Bool? {
        guard case .value(.integer(let number), _) = right else { return nil }
        switch (op, number) {
        case (.greater, 0), (.greaterOrEqual, 1), (.notEqual, 0): return true
        case (.equal, 0), (.lessOrEqual, 0), (.less, 1): return false
        default: return nil
        }
    }
}

extension ExpressionSyntax {
    /// Where the expression starts.
    var position: Int {
        switch self {
        case .keyPath(let path): return path.position
        case .value(_, let position), .variable(_, let position), .list(_, let position): return position
        case .aggregate(_, let collection, _, _): return collection.position
        case .subquery(_, _, _, let position): return position
        }
    }

    /// A key path or an aggregate: what a comparison is about.
    var isSubject: Bool {
        switch self {
        case .keyPath, .aggregate: return true
        default: return false
        }
    }
}

extension PredicateOperator {
    /// The operator with its sides swapped (`5 < x` is `x > 5`); nil when it cannot swap.
    var mirrored: PredicateOperator? {
        switch self {
        case .equal, .notEqual: return self
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return nil
        }
    }
}

extension PredicateValue {
    /// The value as a user would have written it, for error messages.
    var written: String {
        switch self {
        case .null: return "nil"
        case .bool(let flag): return flag ? "TRUE" : "FALSE"
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .text(let text): return "'" + text + "'"
        }
    }
}
