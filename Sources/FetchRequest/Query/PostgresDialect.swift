/// The SQL a request generates (SQLite's dialect: `SQLGenerator`), said in PostgreSQL's so that
/// it answers the same rows in the same order.
///
/// The generator writes one dialect, so a request is prepared once whichever store runs it; a
/// store on a server translates the text when it prepares a statement (once per statement). The
/// differences, each rewritten token by token:
///
/// | SQLite | PostgreSQL | why |
/// |---|---|---|
/// | `?` | `$1`, `$2`, … | placeholders |
/// | `x IS ?`, `x IS NOT ?` | `IS NOT DISTINCT FROM $n`, `IS DISTINCT FROM $n` | `IS` compares values only with NULL there |
/// | `(…) IS NOT 1` | `(…) IS NOT TRUE` | a predicate is a boolean there |
/// | `ORDER BY k`, `ORDER BY k DESC` | `… NULLS FIRST`, `… DESC NULLS LAST` | SQLite orders NULL before every value |
/// | `x LIKE ?` | `x ILIKE $n` | SQLite's `LIKE` ignores the case of ASCII letters; `ILIKE` on a `COLLATE "C"` column does exactly that |
/// | `x GLOB ?` | `x LIKE $n ESCAPE '\'`, the pattern rewritten (`globToLike`) | no `GLOB` there |
/// | `LIMIT -1` | `LIMIT ALL` | no limit |
/// | `LIMIT ?` bound to a negative number | `LIMIT $n` bound to the largest bigint | SQLite reads a negative limit as none; a server refuses it |
/// | `/* first rows by k */` ending a derived table | `ORDER BY k NULLS FIRST FETCH FIRST $n ROWS WITH TIES`, `$n` the statement's `LIMIT` | the enclosing query joins only the rows it can list (`Query.firstRowsKey`); SQLite flattens the derived table and reads past the comment |
/// | `x IN (?, ?, …)`, `x NOT IN (?, …)` | `x = ANY($n)`, `x <> ALL($n)`, the values given as one array | one statement whatever the number of values, so a server prepares it once and, after five runs, plans it once (a generic plan) rather than for each run |
/// | `x IN (SELECT DISTINCT …)`, `x NOT IN (SELECT DISTINCT …)` | `x = ANY(ARRAY(SELECT DISTINCT …))`, `x <> ALL(ARRAY(…))` | a request marks with `DISTINCT` a subquery of a few values (the services of a day): read once into an array, it is not probed again for each row, as a reused (generic) plan did, and the statement is planned faster |
/// | `FROM (SELECT …)` | `FROM (SELECT …) AS "derived"` | a derived table needs a name |
/// | `"sqlite_master"` | `"sqlite_schema"` | the file's `CREATE` statements, kept by the import |
/// | `INSERT OR IGNORE INTO …` | `INSERT INTO … ON CONFLICT DO NOTHING` | a row whose key is taken is left out |
/// | `INSERT OR FAIL INTO …` | `INSERT INTO …` | a server's statement fails whole anyway |
///
/// Text columns are `COLLATE "C"` on the server, so text orders byte by byte as SQLite's BINARY.
public struct PostgresStatementText: Sendable, Equatable {
    /// The statement in PostgreSQL's dialect.
    public let sql: String
    /// The (0-based) placeholders whose values are `GLOB` patterns, to be given as `LIKE` patterns.
    public let globArguments: Set<Int>
    /// The (0-based) placeholders whose values are limits: a negative one (SQLite's "no limit")
    /// is given as the largest bigint.
    public let limitArguments: Set<Int>
    /// How many values the statement takes: the SQLite text's placeholders (an `IN` list's
    /// values are one parameter on the server).
    public let argumentCount: Int
    /// For each of the server's parameters, how many of the values it takes: 1, or an `IN` list's
    /// (`ParameterSource.list`).
    public let sources: [ParameterSource]
    /// Whether the request says one plan serves all its values (`Query.plannedOnce`).
    public let plannedOnce: Bool

    /// Translates `sql`, SQLite's dialect as `SQLGenerator` writes it.
    public init(translating sql: String) throws {
        var translator = Translator(tokens: SQLToken.split(sql))
        try translator.run()
        self.sql = translator.output
        self.globArguments = translator.globArguments
        self.limitArguments = translator.limitArguments
        self.argumentCount = translator.arguments
        self.sources = translator.sources
        plannedOnce = sql.hasPrefix(SQLGenerator.plannedOnceMarker)
    }

    /// A `GLOB` pattern as a `LIKE` pattern with `\` escapes: `*` → `%`, `?` → `_`, `[c]` → `c`.
    /// The patterns the predicate compiler writes use only these (`SQLPredicate.escapeGlob`).
    public static func globToLike(_ pattern: String) throws -> String {
        var result = ""
        var characters = pattern.makeIterator()
        while let character = characters.next() {
            switch character {
            case "*": result += "%"
            case "?": result += "_"
            case "[":
                guard let literal = characters.next(), characters.next() == "]" else {
                    throw RequestError.unsupportedOnServer(what: "the GLOB pattern \(pattern) (a character class)")
                }
                result += escapedForLike(literal)
            default: result += escapedForLike(character)
            }
        }
        return result
    }

    private static func escapedForLike(_ character: Character) -> String {
        character == "%" || character == "_" || character == "\\" ? "\\" + String(character) : String(character)
    }
}

/// What one of a translated statement's parameters takes of the values given for the SQLite text.
public enum ParameterSource: Equatable, Sendable {
    /// The next value.
    case value
    /// The next `count` values, as one array (an `IN` list's).
    case list(count: Int)

    /// How many of the values the parameter takes.
    public var count: Int {
        switch self {
        case .value: return 1
        case .list(let count): return count
        }
    }
}

/// One token of SQL text as the generator writes it.
struct SQLToken: Equatable {
    enum Kind { case word, quoted, string, number, symbol, space, comment }
    let kind: Kind
    let text: String

    /// Whether the token is the keyword `keyword` (any case).
    func isKeyword(_ keyword: String) -> Bool { kind == .word && text.uppercased() == keyword }

    static func split(_ sql: String) -> [SQLToken] {
        var tokens: [SQLToken] = []
        let characters = Array(sql)
        var index = 0
        while index < characters.count {
            let start = index
            let character = characters[index]
            let kind: Kind
            if character == "/", index + 1 < characters.count, characters[index + 1] == "*" {
                // A comment, to its `*/` (or the end).
                index += 2
                while index + 1 < characters.count && !(characters[index] == "*" && characters[index + 1] == "/") { index += 1 }
                index = min(index + 2, characters.count)
                kind = .comment
            } else if character == "\"" || character == "'" {
                // A quoted identifier or string literal; a doubled quote stays inside it.
                index += 1
                while index < characters.count {
                    if characters[index] == character {
                        if index + 1 < characters.count && characters[index + 1] == character { index += 2; continue }
                        break
                    }
                    index += 1
                }
                index += 1
                kind = character == "\"" ? .quoted : .string
            } else if character.isWhitespace {
                while index < characters.count && characters[index].isWhitespace { index += 1 }
                kind = .space
            } else if character.isLetter || character == "_" {
                while index < characters.count && (characters[index].isLetter || characters[index].isNumber || characters[index] == "_") { index += 1 }
                kind = .word
            } else if character.isNumber {
                while index < characters.count && (characters[index].isNumber || characters[index] == ".") { index += 1 }
                kind = .number
            } else {
                index += 1
                kind = .symbol
            }
            tokens.append(SQLToken(kind: kind, text: String(characters[start..<min(index, characters.count)])))
        }
        return tokens
    }
}

/// The token-by-token rewrite of `PostgresStatementText`.
private struct Translator {
    let tokens: [SQLToken]
    var output = ""
    var globArguments: Set<Int> = []
    var limitArguments: Set<Int> = []
    /// The placeholder of the statement's own `LIMIT` (not a subquery's), once written.
    private var statementLimit: String?
    /// The values the SQLite text takes so far, and what each server parameter takes of them.
    private(set) var arguments = 0
    private(set) var sources: [ParameterSource] = []
    private var placeholders = 0
    private var position = 0
    /// Set by `INSERT OR IGNORE`: the statement ends with `ON CONFLICT DO NOTHING`.
    private var ignoringConflicts = false
    /// For each open parenthesis: whether it opened a derived table (`FROM (`), and the depth's
    /// ORDER BY state.
    private var frames: [Frame] = [Frame(derivedTable: false)]

    private struct Frame {
        let derivedTable: Bool
        /// Opened by `IN (SELECT DISTINCT` as `ANY(ARRAY(`: closed twice.
        var array = false
        /// Inside an ORDER BY list: whether the current key has said DESC.
        var ordering: Bool = false
        var descending = false
    }

    init(tokens: [SQLToken]) { self.tokens = tokens }

    /// The next token that is not white space, at or after `index`.
    private func significant(from index: Int) -> (index: Int, token: SQLToken)? {
        var index = index
        while index < tokens.count {
            if tokens[index].kind != .space { return (index, tokens[index]) }
            index += 1
        }
        return nil
    }

    private mutating func placeholder(taking source: ParameterSource = .value) -> String {
        placeholders += 1
        sources.append(source)
        arguments += source.count
        return "$\(placeholders)"
    }

    /// Ends the current ORDER BY key (before a comma, a LIMIT, a closing parenthesis or the end).
    private mutating func endOrderingKey() {
        guard frames[frames.count - 1].ordering else { return }
        // Before the white space that led to the keyword ending the key.
        let space = output.reversed().prefix { $0 == " " }.count
        output.removeLast(space)
        output += frames[frames.count - 1].descending ? " NULLS LAST" : " NULLS FIRST"
        output += String(repeating: " ", count: space)
        frames[frames.count - 1].descending = false
    }

    mutating func run() throws {
        while position < tokens.count {
            let token = tokens[position]
            position += 1
            switch token.kind {
            case .space, .string, .number:
                output += token.text
            case .comment:
                firstRows(token.text)
            case .quoted:
                output += token.text == "\"sqlite_master\"" ? "\"sqlite_schema\"" : token.text
            case .symbol:
                try symbol(token.text)
            case .word:
                try word(token)
            }
        }
        endOrderingKey()
        if ignoringConflicts { output += " ON CONFLICT DO NOTHING" }
        endFirstRows()
    }

    /// `/* first rows by k */` (`SQLGenerator.firstRowsMarker`) as `ORDER BY k NULLS FIRST FETCH
    /// FIRST $n ROWS WITH TIES`, `$n` the statement's `LIMIT`, known only at its end
    /// (`endFirstRows`); any other comment as it is.
    private mutating func firstRows(_ comment: String) {
        guard comment.hasPrefix(SQLGenerator.firstRowsMarkerStart), comment.hasSuffix("*/") else { return output += comment }
        let key = String(comment.dropFirst(SQLGenerator.firstRowsMarkerStart.count).dropLast(2)).trimmingTrailingSpaces
        output += String(Self.firstRowsStart) + "ORDER BY " + key + " NULLS FIRST FETCH FIRST " + String(Self.statementLimitMark) + " ROWS WITH TIES" + String(Self.firstRowsStart)
    }

    /// Puts the statement's `LIMIT` placeholder into the `FETCH FIRST` clauses; without one, a
    /// statement lists every row and the clauses go.
    private mutating func endFirstRows() {
        guard output.contains(Self.firstRowsStart) else { return }
        let parts = output.split(separator: Self.firstRowsStart, omittingEmptySubsequences: false)
        output = parts.enumerated().map { index, part in
            guard index % 2 == 1 else { return String(part) }
            return statementLimit.map { String(part).replacingAll(Self.statementLimitMark, with: $0) } ?? ""
        }.joined()
    }

    /// Marks, in the output, a `FETCH FIRST` clause (both ends) and where its limit goes.
    private static let firstRowsStart: Character = "\u{1}"
    private static let statementLimitMark: Character = "\u{2}"

    private mutating func symbol(_ text: String) throws {
        switch text {
        case "?":
            output += placeholder()
        case "(":
            let derived = output.hasSuffix("FROM ")
            frames.append(Frame(derivedTable: derived))
            output += "("
        case ")":
            endOrderingKey()
            let frame = frames.count > 1 ? frames.removeLast() : Frame(derivedTable: false)
            output += frame.array ? "))" : ")"
            if frame.derivedTable, significant(from: position).map({ $0.token.isKeyword("AS") }) != true {
                output += " AS \"derived\""
            }
        case ",":
            endOrderingKey()
            output += ","
        default:
            output += text
        }
    }

    private mutating func word(_ token: SQLToken) throws {
        switch token.text.uppercased() {
        case "ORDER":
            output += token.text
            if let by = significant(from: position), by.token.isKeyword("BY") {
                output += " BY"
                position = by.index + 1
                frames[frames.count - 1].ordering = true
                frames[frames.count - 1].descending = false
            }
        case "DESC":
            output += token.text
            if frames[frames.count - 1].ordering { frames[frames.count - 1].descending = true }
        case "LIMIT":
            endOrderingKey()
            frames[frames.count - 1].ordering = false
            output += token.text
            if let minus = significant(from: position), minus.token.text == "-",
               let one = significant(from: minus.index + 1), one.token.text == "1" {
                output += " ALL"
                position = one.index + 1
            } else if let value = significant(from: position), value.token.text == "?" {
                limitArguments.insert(arguments)
                let limit = placeholder()
                if frames.count == 1 { statementLimit = limit }
                output += " " + limit
                position = value.index + 1
            }
        case "INSERT":
            output += token.text
            // `INSERT OR IGNORE` / `OR FAIL`: the conflict clause moves to the end, or goes.
            if let or = significant(from: position), or.token.isKeyword("OR"), let verb = significant(from: or.index + 1) {
                ignoringConflicts = verb.token.isKeyword("IGNORE")
                position = verb.index + 1
            }
        case "IN":
            inSubquery(token)
        case "IS":
            try isComparison(token)
        case "LIKE":
            output += "ILIKE"
        case "GLOB":
            output += "LIKE"
            guard let pattern = significant(from: position), pattern.token.text == "?" else {
                throw RequestError.unsupportedOnServer(what: "GLOB with a pattern that is not a bound value")
            }
            globArguments.insert(arguments)
            output += " " + placeholder() + " ESCAPE '\\'"
            position = pattern.index + 1
        case "TOTAL":
            throw RequestError.unsupportedOnServer(what: "SQLite's TOTAL()")
        default:
            output += token.text
        }
    }

    /// `IN (SELECT DISTINCT …)` as `= ANY(ARRAY(SELECT DISTINCT …))`, `IN (?, ?, …)` as `= ANY($n)`
    /// (`NOT IN` as `<> ALL(…)`); any other `IN` as it is.
    private mutating func inSubquery(_ token: SQLToken) {
        guard let open = significant(from: position), open.token.text == "(" else { return output += token.text }
        if let close = closingOfValueList(after: open.index) {
            let negated = removeNot()
            output += (negated ? "<> ALL(" : "= ANY(") + placeholder(taking: .list(count: close.values)) + ")"
            position = close.index + 1
            return
        }
        guard let select = significant(from: open.index + 1), select.token.isKeyword("SELECT"),
              let distinct = significant(from: select.index + 1), distinct.token.isKeyword("DISTINCT") else { return output += token.text }
        output += removeNot() ? "<> ALL(ARRAY(" : "= ANY(ARRAY("
        frames.append(Frame(derivedTable: false, array: true))
        position = open.index + 1
    }

    /// Takes a `NOT ` just written away, saying whether there was one.
    private mutating func removeNot() -> Bool {
        guard output.hasSuffix("NOT ") else { return false }
        output.removeLast(4)
        return true
    }

    /// The `)` closing a list of placeholders only (`(?, ?, …)`) opened at `open`, and how many
    /// there are; nil for any other list, or when the value before `IN` is itself a placeholder
    /// (whose type the server could not then tell from an array's).
    private func closingOfValueList(after open: Int) -> (index: Int, values: Int)? {
        guard let before = tokens[..<(position - 1)].last(where: { $0.kind != .space }), before.text != "?" else { return nil }
        var values = 0
        var index = open + 1
        while let value = significant(from: index), value.token.text == "?" {
            values += 1
            guard let next = significant(from: value.index + 1) else { return nil }
            if next.token.text == ")" { return (next.index, values) }
            guard next.token.text == "," else { return nil }
            index = next.index + 1
        }
        return nil
    }

    /// `x IS ?` and `x IS NOT ?` compare values in SQLite; `(…) IS NOT 1` asks "not true".
    private mutating func isComparison(_ token: SQLToken) throws {
        var next = significant(from: position)
        var negated = false
        if let not = next, not.token.isKeyword("NOT") {
            negated = true
            next = significant(from: not.index + 1)
        }
        guard let operand = next else { return output += token.text }
        if operand.token.text == "?" {
            output += negated ? "IS DISTINCT FROM " : "IS NOT DISTINCT FROM "
            output += placeholder()
            position = operand.index + 1
        } else if operand.token.kind == .number, operand.token.text == "1" || operand.token.text == "0" {
            output += (negated ? "IS NOT " : "IS ") + (operand.token.text == "1" ? "TRUE" : "FALSE")
            position = operand.index + 1
        } else {
            output += token.text
        }
    }
}
