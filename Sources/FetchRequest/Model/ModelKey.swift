/// A record type that is an entity of a model, with typed keys for predicates the compiler checks:
///
///     StopTime.keys.trip.route.shortName == "1G" && StopTime.keys.stopSequence == 1
///
/// is the predicate `trip.route.route_short_name == '1G' AND stop_sequence == 1`, built as the
/// same `PredicateSyntax` a format string parses into, with a misspelt key or a value of the wrong
/// Swift type caught at compile time.
public protocol ModelRecord: Entity {
    /// The entity's keys: its attributes and relationships as `ModelKey`s.
    associatedtype Keys: Sendable
    /// The entity's name in the model.
    static var entityName: String { get }
    /// The keys, where key paths start and `ModelKey` follows relationships.
    static var keys: Keys { get }
}

/// A to-many relationship's value: the related records (only counted, in predicates).
public enum ToMany<Destination: ModelRecord> {}

/// A key path of a model from `Root`'s records to a `Value`: an attribute (`Value` is its Swift
/// type), a to-one relationship (`Value` is the related record type, whose keys follow by member
/// lookup: `keys.trip.route`), or a to-many one (`Value` is `ToMany<Destination>`).
@dynamicMemberLookup
public struct ModelKey<Root: ModelRecord, Value>: Sendable {
    /// The key path's names (`["trip", "route", "route_short_name"]`).
    public let components: [String]

    /// The key named `name` of `Root`'s entity (as the model names it).
    public init(_ name: String) {
        components = [name]
    }

    init(components: [String]) {
        self.components = components
    }

    /// Follows a to-one relationship to one of its destination's keys.
    public subscript<Next>(dynamicMember member: KeyPath<Value.Keys, ModelKey<Value, Next>>) -> ModelKey<Root, Next> where Value: ModelRecord {
        ModelKey<Root, Next>(components: components + Value.keys[keyPath: member].components)
    }

    var syntax: ExpressionSyntax {
        .keyPath(KeyPathSyntax(components: components, positions: Array(repeating: 0, count: components.count)))
    }
}

/// A predicate over `Root`'s records built from typed keys; its `format` is the same predicate as
/// an `NSPredicate` format string (for messages and `--explain` readers).
public struct ModelPredicate<Root: ModelRecord>: Sendable {
    /// The predicate, as a format string would parse into it.
    public let syntax: PredicateSyntax

    /// The predicate written as a format string.
    public var format: String { syntax.formatted }
}

/// A Swift value a typed predicate compares keys with.
public protocol PredicateValueConvertible: Sendable {
    var predicateValue: PredicateValue { get }
}

extension String: PredicateValueConvertible { public var predicateValue: PredicateValue { .text(self) } }
extension Int: PredicateValueConvertible { public var predicateValue: PredicateValue { .integer(self) } }
extension Double: PredicateValueConvertible { public var predicateValue: PredicateValue { .real(self) } }
extension Bool: PredicateValueConvertible { public var predicateValue: PredicateValue { .bool(self) } }
extension Optional: PredicateValueConvertible where Wrapped: PredicateValueConvertible {
    /// The wrapped value's, or `nil`.
    public var predicateValue: PredicateValue { self?.predicateValue ?? .null }
}

private func comparison<Root>(_ key: ModelKey<Root, some Any>, _ op: PredicateOperator, _ value: PredicateValue,
                              options: StringOptions = []) -> ModelPredicate<Root> {
    ModelPredicate(syntax: .comparison(ComparisonSyntax(left: key.syntax, op: op, options: options, right: .value(value, position: 0), position: 0)))
}

/// The key equals `value`: `KEY == value`.
public func == <Root, Value: PredicateValueConvertible>(key: ModelKey<Root, Value>, value: Value) -> ModelPredicate<Root> { comparison(key, .equal, value.predicateValue) }
/// The key differs from (a missing value differs from every value) `value`: `KEY != value`.
public func != <Root, Value: PredicateValueConvertible>(key: ModelKey<Root, Value>, value: Value) -> ModelPredicate<Root> { comparison(key, .notEqual, value.predicateValue) }
/// The key is less than `value`: `KEY < value`.
public func < <Root, Value: PredicateValueConvertible>(key: ModelKey<Root, Value>, value: Value) -> ModelPredicate<Root> { comparison(key, .less, value.predicateValue) }
/// The key is at most `value`: `KEY <= value`.
public func <= <Root, Value: PredicateValueConvertible>(key: ModelKey<Root, Value>, value: Value) -> ModelPredicate<Root> { comparison(key, .lessOrEqual, value.predicateValue) }
/// The key is greater than `value`: `KEY > value`.
public func > <Root, Value: PredicateValueConvertible>(key: ModelKey<Root, Value>, value: Value) -> ModelPredicate<Root> { comparison(key, .greater, value.predicateValue) }
/// The key is at least `value`: `KEY >= value`.
public func >= <Root, Value: PredicateValueConvertible>(key: ModelKey<Root, Value>, value: Value) -> ModelPredicate<Root> { comparison(key, .greaterOrEqual, value.predicateValue) }

/// A key whose value is text, for the string operators.
public protocol TextValue {}
extension String: TextValue {}
extension Optional: TextValue where Wrapped == String {}

extension ModelKey where Value: TextValue {
    /// `BEGINSWITH`, with `[c]`/`[d]` as `options`.
    public func beginsWith(_ prefix: String, options: StringOptions = []) -> ModelPredicate<Root> { comparison(self, .beginsWith, .text(prefix), options: options) }
    /// `ENDSWITH`.
    public func endsWith(_ suffix: String, options: StringOptions = []) -> ModelPredicate<Root> { comparison(self, .endsWith, .text(suffix), options: options) }
    /// `CONTAINS`.
    public func contains(_ text: String, options: StringOptions = []) -> ModelPredicate<Root> { comparison(self, .contains, .text(text), options: options) }
    /// `LIKE` (`*` and `?` wildcards).
    public func like(_ pattern: String, options: StringOptions = []) -> ModelPredicate<Root> { comparison(self, .like, .text(pattern), options: options) }
}

extension ModelKey where Value: PredicateValueConvertible {
    /// `IN {…}`.
    public func isIn(_ values: [Value]) -> ModelPredicate<Root> {
        ModelPredicate(syntax: .comparison(ComparisonSyntax(left: syntax, op: .in, right: .list(values.map { .value($0.predicateValue, position: 0) }, position: 0), position: 0)))
    }

    /// `BETWEEN {low, high}`.
    public func isBetween(_ low: Value, and high: Value) -> ModelPredicate<Root> {
        ModelPredicate(syntax: .comparison(ComparisonSyntax(left: syntax, op: .between,
                                                            right: .list([.value(low.predicateValue, position: 0), .value(high.predicateValue, position: 0)], position: 0), position: 0)))
    }
}

/// A number computed from a to-many relationship (`@count`, `SUBQUERY(…).@count`), to compare.
public struct ModelAggregate<Root: ModelRecord>: Sendable {
    let syntax: ExpressionSyntax
}

extension ModelKey {
    /// `relationship.@count`: how many related records.
    public func count<Destination>() -> ModelAggregate<Root> where Value == ToMany<Destination> {
        ModelAggregate(syntax: .aggregate(.count, collection: syntax, attribute: nil, position: 0))
    }

    /// `SUBQUERY(relationship, $x, predicate).@count`: how many related records `predicate` holds for.
    public func count<Destination>(where predicate: (ModelKey<Destination, Destination>) -> ModelPredicate<Destination>) -> ModelAggregate<Root>
    where Value == ToMany<Destination> {
        let element = ModelKey<Destination, Destination>(components: ["$x"])
        guard case .keyPath(let collection) = syntax else { preconditionFailure("a key is a key path") }
        return ModelAggregate(syntax: .aggregate(.count, collection: .subquery(collection: collection, variable: "x", predicate: predicate(element).syntax, position: 0),
                                                 attribute: nil, position: 0))
    }
}

private func comparison<Root>(_ aggregate: ModelAggregate<Root>, _ op: PredicateOperator, _ value: Int) -> ModelPredicate<Root> {
    ModelPredicate(syntax: .comparison(ComparisonSyntax(left: aggregate.syntax, op: op, right: .value(.integer(value), position: 0), position: 0)))
}

/// The count equals `value`: `COUNT == value`.
public func == <Root>(aggregate: ModelAggregate<Root>, value: Int) -> ModelPredicate<Root> { comparison(aggregate, .equal, value) }
/// The count differs from (a missing value differs from every value) `value`: `COUNT != value`.
public func != <Root>(aggregate: ModelAggregate<Root>, value: Int) -> ModelPredicate<Root> { comparison(aggregate, .notEqual, value) }
/// The count is less than `value`: `COUNT < value`.
public func < <Root>(aggregate: ModelAggregate<Root>, value: Int) -> ModelPredicate<Root> { comparison(aggregate, .less, value) }
/// The count is at most `value`: `COUNT <= value`.
public func <= <Root>(aggregate: ModelAggregate<Root>, value: Int) -> ModelPredicate<Root> { comparison(aggregate, .lessOrEqual, value) }
/// The count is greater than `value`: `COUNT > value`.
public func > <Root>(aggregate: ModelAggregate<Root>, value: Int) -> ModelPredicate<Root> { comparison(aggregate, .greater, value) }
/// The count is at least `value`: `COUNT >= value`.
public func >= <Root>(aggregate: ModelAggregate<Root>, value: Int) -> ModelPredicate<Root> { comparison(aggregate, .greaterOrEqual, value) }

/// Both hold.
public func && <Root>(lhs: ModelPredicate<Root>, rhs: ModelPredicate<Root>) -> ModelPredicate<Root> {
    var parts: [PredicateSyntax] = []
    for side in [lhs.syntax, rhs.syntax] {
        if case .and(let inner) = side { parts += inner } else { parts.append(side) }
    }
    return ModelPredicate(syntax: .and(parts))
}

/// Either holds.
public func || <Root>(lhs: ModelPredicate<Root>, rhs: ModelPredicate<Root>) -> ModelPredicate<Root> {
    var parts: [PredicateSyntax] = []
    for side in [lhs.syntax, rhs.syntax] {
        if case .or(let inner) = side { parts += inner } else { parts.append(side) }
    }
    return ModelPredicate(syntax: .or(parts))
}

/// Does not hold.
public prefix func ! <Root>(predicate: ModelPredicate<Root>) -> ModelPredicate<Root> {
    ModelPredicate(syntax: .not(predicate.syntax, position: 0))
}

extension FetchRequest where Record: ModelRecord {
    /// A request for the records `predicate` holds for, compiled against `model` (the entity
    /// `Record.entityName`): the typed counterpart of `init(format:arguments:variables:in:)`.
    public init(where predicate: ModelPredicate<Record>, in model: ObjectModel) throws {
        guard var fetch = ModelFetch(entity: Record.entityName, in: model) else {
            throw PredicateFormatError("the model has no entity \(Record.entityName)", in: predicate.format, at: 0)
        }
        try fetch.filter(predicate.syntax, format: predicate.format)
        self.init()
        query = try fetch.query(selecting: []).query
        query.selection = []
    }
}

extension FetchRequest where Record: ModelRecord {
    /// A request for the records the predicate `format` holds for, in the entity
    /// `Record.entityName` of `model` (whatever table it is stored in for this model).
    public init(format: String, arguments: [PredicateValue] = [], variables: [String: PredicateValue] = [:], in model: ObjectModel) throws {
        guard var fetch = ModelFetch(entity: Record.entityName, in: model) else {
            throw PredicateFormatError("the model has no entity \(Record.entityName)", in: format, at: 0)
        }
        try fetch.filter(format: format, arguments: arguments, variables: variables)
        self.init()
        query = try fetch.query(selecting: []).query
        query.selection = []
    }
}
