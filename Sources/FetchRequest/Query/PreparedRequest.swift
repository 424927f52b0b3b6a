/// A request turned into SQL: the text with `?` placeholders and the values to bind, in order.
///
/// This is what runs, what the statement cache is keyed by, and what `--explain` shows.
public struct PreparedRequest: Sendable, Equatable {
    /// The SQL text, with a `?` for every value.
    public let sql: String
    /// The values for the placeholders, in order. Substitution variables not yet given are NULL.
    public let arguments: [SQLValue]
    /// For each placeholder that is a substitution variable, its name.
    let variables: [Int: String]
    /// The placeholders that are substitution variables, in order (the keys of `variables`,
    /// sorted once here rather than at every `binding(_:)`).
    let variableSlots: [Int]

    init(sql: String, arguments: [SQLValue], variables: [Int: String] = [:]) {
        self.init(sql: sql, arguments: arguments, variables: variables, variableSlots: variables.keys.sorted())
    }

    private init(sql: String, arguments: [SQLValue], variables: [Int: String], variableSlots: [Int]) {
        self.sql = sql
        self.arguments = arguments
        self.variables = variables
        self.variableSlots = variableSlots
    }

    /// The names of the template's substitution variables (Core Data's `$NAME`), in order.
    public var variableNames: [String] {
        variableSlots.compactMap { variables[$0] }
    }

    /// The same SQL with the substitution variables bound to `values` (Core Data's
    /// `fetchRequestFromTemplate(withName:substitutionVariables:)`).
    ///
    /// The SQL text does not change, so the statement cache prepares it only once.
    /// With `keepingOthers`, variables `values` does not name stay variables, to be bound by a
    /// later call (a template bound in two steps: the stops once, the dates one by one); the ones
    /// bound are then no longer variables.
    public func substituting(_ values: [String: any SQLValueConvertible], keepingOthers: Bool = false) throws -> PreparedRequest {
        var arguments = self.arguments
        var remaining = keepingOthers ? variables : [:]
        for (index, name) in variables {
            guard let value = values[name] else {
                if keepingOthers { continue }
                throw RequestError.missingSubstitutionVariable(name: name)
            }
            arguments[index] = value.sqlValue
            remaining[index] = nil
        }
        return PreparedRequest(sql: sql, arguments: arguments, variables: keepingOthers ? remaining : variables)
    }

    /// The same SQL with the substitution variables bound, in the order they appear, to `values`:
    /// the fast form for a template run many times (no names looked up).
    public func binding(_ values: [SQLValue]) throws -> PreparedRequest {
        guard variableSlots.count == values.count else {
            throw RequestError.argumentCountMismatch(sql: sql, expected: variableSlots.count, given: values.count)
        }
        var arguments = self.arguments
        for (slot, value) in zip(variableSlots, values) { arguments[slot] = value }
        return PreparedRequest(sql: sql, arguments: arguments, variables: variables, variableSlots: variableSlots)
    }

    /// The `EXPLAIN QUERY PLAN` form of this request: the same SQL and arguments.
    public var explainQueryPlan: PreparedRequest {
        PreparedRequest(sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments, variables: variables)
    }
}
