/// The one place SQL text is made.
///
/// Clauses come out in a fixed order, every identifier is quoted (an embedded `"` doubled), and
/// every value becomes a `?` placeholder collected into the argument list.
public struct SQLGenerator {
    private var arguments: [SQLValue] = []
    private var variables: [Int: String] = [:]

    /// The SQL and arguments of `query`.
    public static func prepare(_ query: Query) -> PreparedRequest {
        var generator = SQLGenerator()
        let sql = (query.plannedOnce ? plannedOnceMarker : "") + generator.select(query)
        return PreparedRequest(sql: sql, arguments: generator.arguments, variables: generator.variables)
    }

    /// The comment that opens the SQL of a query whose one plan serves every value (`Query.plannedOnce`).
    public static let plannedOnceMarker = "/* planned once */ "

    /// The comment ending the query of a derived table whose first rows by `key` (SQL text that
    /// binds no value) are all the enclosing statement can list (`Query.firstRowsKey`): SQLite
    /// reads past it; a server keeps those rows only (`PostgresStatementText`).
    static func firstRowsMarker(key: String) -> String {
        firstRowsMarkerStart + key + " */"
    }

    static let firstRowsMarkerStart = "/* first rows by "

    /// The SQL and arguments of `SELECT COUNT(*)` over the rows `query` selects.
    ///
    /// A plain query counts its rows directly; one with grouping, `DISTINCT` or limits is counted
    /// as a subquery so the count agrees with what a fetch would return.
    public static func prepareCount(_ query: Query) -> PreparedRequest {
        var generator = SQLGenerator()
        let sql: String
        if query.groupBy.isEmpty && !query.distinct && query.limit == nil && query.limitVariable == nil && query.offset == 0 {
            var counting = query.select([SelectedProperty(countAll)])
            counting.sortDescriptors = []
            sql = generator.select(counting)
        } else {
            sql = "SELECT COUNT(*) FROM (" + generator.select(query) + ")"
        }
        return PreparedRequest(sql: sql, arguments: generator.arguments, variables: generator.variables)
    }

    /// The SQL and arguments of `DELETE FROM table WHERE predicate`.
    public static func prepareDelete(from table: String, where predicate: SQLPredicate) -> PreparedRequest {
        var generator = SQLGenerator()
        var sql = "DELETE FROM " + quote(table)
        if !generator.isAlwaysTrue(predicate) { sql += " WHERE " + generator.predicate(predicate) }
        return PreparedRequest(sql: sql, arguments: generator.arguments, variables: generator.variables)
    }

    /// The SQL and arguments of `UPDATE table SET column = expression, … WHERE predicate`: each
    /// expression may be a correlated subquery over the row being updated (`table`'s own name).
    public static func prepareUpdate(_ table: String, set assignments: [(column: String, value: SQLExpression)], where predicate: SQLPredicate) -> PreparedRequest {
        var generator = SQLGenerator()
        var sql = "UPDATE " + quote(table) + " SET "
            + assignments.map { quote($0.column) + " = " + generator.expression($0.value) }.joined(separator: ", ")
        if !generator.isAlwaysTrue(predicate) { sql += " WHERE " + generator.predicate(predicate) }
        return PreparedRequest(sql: sql, arguments: generator.arguments, variables: generator.variables)
    }

    /// The SQL and arguments of `INSERT INTO table (columns…) VALUES (?, …)` with `values` bound.
    public static func prepareInsert(into table: String, values: [(column: String, value: SQLValue)]) -> PreparedRequest {
        let sql = "INSERT INTO " + quote(table) + " (" + values.map { quote($0.column) }.joined(separator: ", ") + ") VALUES ("
            + Array(repeating: "?", count: values.count).joined(separator: ", ") + ")"
        return PreparedRequest(sql: sql, arguments: values.map(\.value))
    }

    /// `"name"`, with any `"` inside doubled, so any string is a safe identifier.
    public static func quote(_ identifier: String) -> String {
        guard identifier.utf8.contains(0x22) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.replacingAll("\"", with: "\"\"") + "\""
    }

    private mutating func select(_ query: Query) -> String {
        var sql = query.distinct ? "SELECT DISTINCT " : "SELECT "
        if query.selection.isEmpty {
            sql += "*"
        } else {
            sql += query.selection.map { property in
                let expression = self.expression(property.expression)
                guard let alias = property.alias else { return expression }
                if case .column(_, let name) = property.expression.node, name == alias { return expression }
                return expression + " AS " + Self.quote(alias)
            }.joined(separator: ", ")
        }
        if let derived = query.derivedRows {
            sql += " FROM (" + select(derived.query) + ") AS " + Self.quote(query.alias)
        } else {
            sql += " FROM " + Self.quote(query.table)
            if query.alias != query.table { sql += " AS " + Self.quote(query.alias) }
        }
        for join in query.joins {
            sql += " " + join.kind.rawValue + " " + Self.quote(join.table)
            if join.alias != join.table { sql += " AS " + Self.quote(join.alias) }
            sql += " ON " + predicate(join.condition)
        }
        if !isAlwaysTrue(query.predicate) {
            sql += " WHERE " + predicate(query.predicate)
        }
        if let key = query.firstRowsKey {
            let bound = arguments.count
            sql += " " + Self.firstRowsMarker(key: expression(key))
            precondition(arguments.count == bound, "a first-rows key binds no value: a comment holds it")
        }
        if !query.groupBy.isEmpty {
            let bound = arguments.count
            sql += " GROUP BY " + query.groupBy.map { expression($0) }.joined(separator: ", ")
            // Each `?` is a parameter of its own on a server, which then cannot tell a grouped
            // expression equal to the same one selected: constants there are `.literal`s.
            precondition(arguments.count == bound, "a GROUP BY expression binds no value: write its constants with SQLExpression.literal")
            if !isAlwaysTrue(query.having) {
                sql += " HAVING " + predicate(query.having)
            }
        }
        if !query.sortDescriptors.isEmpty {
            sql += " ORDER BY " + query.sortDescriptors.map { descriptor in
                var key = expression(descriptor.expression)
                if let collation = descriptor.collation { key += " COLLATE " + collation.rawValue }
                return key + (descriptor.ascending ? "" : " DESC")
            }.joined(separator: ", ")
        }
        if let variable = query.limitVariable {
            sql += " LIMIT " + expression(.variable(variable))
        } else if let limit = query.limit {
            sql += " LIMIT " + bind(.integer(Int64(limit)))
            if query.offset > 0 { sql += " OFFSET " + bind(.integer(Int64(query.offset))) }
        } else if query.offset > 0 {
            sql += " LIMIT -1 OFFSET " + bind(.integer(Int64(query.offset)))
        }
        return sql
    }

    private func isAlwaysTrue(_ predicate: SQLPredicate) -> Bool {
        if case .constant(true) = predicate.node { return true }
        return false
    }

    private mutating func bind(_ value: SQLValue) -> String {
        arguments.append(value)
        return "?"
    }

    private mutating func expression(_ expression: SQLExpression) -> String {
        switch expression.node {
        case let .column(qualifier, name):
            guard let qualifier else { return Self.quote(name) }
            return Self.quote(qualifier) + "." + Self.quote(name)
        case .value(let value):
            return bind(value)
        case .variable(let name):
            variables[arguments.count] = name
            return bind(.null)
        case let .function(function, operands, distinct):
            let inner = operands.map { self.expression($0) }.joined(separator: ", ")
            return function.rawValue + "(" + (distinct ? "DISTINCT " : "") + inner + ")"
        case let .arithmetic(op, lhs, rhs):
            return "(" + self.expression(lhs) + " " + op + " " + self.expression(rhs) + ")"
        case let .caseWhen(condition, then, otherwise):
            return "CASE WHEN " + predicate(condition) + " THEN " + self.expression(then)
                + " ELSE " + self.expression(otherwise) + " END"
        case .star:
            return "*"
        case .integerLiteral(let number):
            return String(number)
        case .subquery(let query):
            return "(" + select(query) + ")"
        }
    }

    private mutating func predicate(_ predicate: SQLPredicate) -> String {
        switch predicate.node {
        case let .comparison(lhs, op, rhs):
            return expression(lhs) + " " + op.rawValue + " " + expression(rhs)
        case let .between(value, low, high):
            return expression(value) + " BETWEEN " + expression(low) + " AND " + expression(high)
        case let .inList(value, list):
            return expression(value) + " IN (" + list.map { expression($0) }.joined(separator: ", ") + ")"
        case let .inSubquery(value, subquery):
            return expression(value) + " IN (" + select(subquery) + ")"
        case .isNull(let value):
            return expression(value) + " IS NULL"
        case let .beginsWith(value, prefix):
            let column = expression(value)
            guard !prefix.isEmpty else { return column + " IS NOT NULL" }
            var sql = column + " >= " + bind(.text(prefix))
            if let successor = SQLPredicate.successor(of: prefix) {
                sql += " AND " + expression(value) + " < " + bind(.text(successor))
            }
            return sql
        case let .like(value, pattern):
            return expression(value) + " LIKE " + bind(.text(pattern)) + " ESCAPE '\\'"
        case let .glob(value, pattern):
            return expression(value) + " GLOB " + bind(.text(pattern))
        case .exists(let subquery):
            var existence = subquery
            if existence.selection.isEmpty { existence.selection = [SelectedProperty(.literal(1))] }
            return "EXISTS (" + select(existence) + ")"
        case let .subqueryCount(subquery, op, n):
            let counting = subquery.select([SelectedProperty(countAll)])
            return "(" + select(counting) + ") " + op.rawValue + " " + expression(n)
        case .and(let parts):
            return parts.map { part in
                let sql = self.predicate(part)
                if case .or = part.node { return "(" + sql + ")" }
                if case .beginsWith = part.node { return "(" + sql + ")" }
                return sql
            }.joined(separator: " AND ")
        case .or(let parts):
            return parts.map { part in
                let sql = self.predicate(part)
                if case .and = part.node { return "(" + sql + ")" }
                if case .beginsWith = part.node { return "(" + sql + ")" }
                return sql
            }.joined(separator: " OR ")
        case .not(let inner):
            if case .isNull(let value) = inner.node { return expression(value) + " IS NOT NULL" }
            return "NOT (" + self.predicate(inner) + ")"
        case .notTrue(let inner):
            return "(" + self.predicate(inner) + ") IS NOT 1"
        case .constant(let value):
            return value ? "1" : "0"
        }
    }
}
