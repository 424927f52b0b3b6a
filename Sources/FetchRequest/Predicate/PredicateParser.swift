/// Reads NSPredicate format strings (the part of the language that maps to SQL) into `PredicateSyntax`.
///
/// The grammar, lowest precedence first:
///
///     predicate   := and ( (OR | ||) and )*
///     and         := not ( (AND | &&) not )*
///     not         := (NOT | !) not | primary
///     primary     := '(' predicate ')' | TRUEPREDICATE | FALSEPREDICATE | comparison
///     comparison  := [ANY | SOME | ALL | NONE] expression operator ['[' c | d | cd | dc ']'] expression
///     expression  := keyPath | $VARIABLE | value | %@ | %K | '{' [expression (',' expression)*] '}'
///                  | SUBQUERY '(' keyPath ',' $variable ',' predicate ')' '.@count'
///     keyPath     := name ('.' name)* ['.' @count | '.' (@sum | @min | @max | @avg) '.' name ('.' name)*]
///
/// Keywords are case-insensitive; a key named like a keyword is written with a leading `#` (`#IN`).
/// Every node keeps its position (a count of `Character`s from the start of the format), so any
/// mistake found here or later is shown with a caret under its place.
///
/// The parser never crashes on bad input: it reads each character once (linear time), and nesting
/// (parentheses, `NOT`, `SUBQUERY`, `{…}` lists) is capped at `maximumDepth` levels, so no input can
/// exhaust the stack.
public struct PredicateParser {
    /// Parses `format`. `%@` and `%K` placeholders take `arguments` in order (one list for both, as NSPredicate's
    /// varargs): `%@` becomes `.value(argument)`; `%K` needs a `.text` argument holding a key path and becomes
    /// `.keyPath` (its positions all point at the `%K`). Throws `PredicateFormatError` (message + position) on any mistake.
    ///
    ///     try PredicateParser.parse("stop_name BEGINSWITH[c] %@ AND location_type == 1", arguments: [.text("alex")])
    ///     // .and([.comparison(stop_name BEGINSWITH[c] 'alex'), .comparison(location_type == 1)])
    public static func parse(_ format: String, arguments: [PredicateValue] = []) throws(PredicateFormatError) -> PredicateSyntax {
        var parser = PredicateParser(format: format, arguments: arguments)
        return try parser.parseFormat()
    }

    /// How deeply parentheses, `NOT`, `SUBQUERY` and lists may nest: deep enough for any real
    /// predicate, shallow enough that parsing (and whatever later walks the tree) stays far from the
    /// end of the stack.
    static let maximumDepth = 100

    private let format: String
    private let arguments: [PredicateValue]
    private var lexer: Lexer
    /// How many of `arguments` the placeholders read so far have taken.
    private var argumentsUsed = 0
    /// How many levels of nesting enclose the token being read.
    private var depth = 0

    private init(format: String, arguments: [PredicateValue]) {
        self.format = format
        self.arguments = arguments
        self.lexer = Lexer(format: format)
    }
}

// MARK: - Predicates

extension PredicateParser {
    /// The whole format: one predicate, then nothing but whitespace, with every argument used.
    private mutating func parseFormat() throws(PredicateFormatError) -> PredicateSyntax {
        if try lexer.peek().kind == .end {
            throw error("the predicate is empty: give a comparison such as stop_name == 'X', or TRUEPREDICATE", at: 0)
        }
        let predicate = try parseOr()
        let rest = try lexer.peek()
        if rest.kind != .end {
            let hint = rest.kind == .closeParen ? "it closes no '('" : "join two predicates with AND or OR"
            throw error("unexpected \(describe(rest)) after the predicate: \(hint)", at: rest.start)
        }
        if argumentsUsed < arguments.count {
            throw error("the format uses \(count(argumentsUsed, "argument")), \(arguments.count) \(arguments.count == 1 ? "was" : "were") given: "
                + "give one argument for each %@ and %K", at: lexer.characters.count)
        }
        return predicate
    }

    /// `p OR q OR …` (also `||`), flattened into one `.or`.
    private mutating func parseOr() throws(PredicateFormatError) -> PredicateSyntax {
        try parseChain(of: .or, keyword: "OR", joined: PredicateSyntax.or,
                       parts: { if case .or(let inner) = $0 { inner } else { nil } }, term: { parser throws(PredicateFormatError) in try parser.parseAnd() })
    }

    /// `p AND q AND …` (also `&&`), flattened into one `.and`.
    private mutating func parseAnd() throws(PredicateFormatError) -> PredicateSyntax {
        try parseChain(of: .and, keyword: "AND", joined: PredicateSyntax.and,
                       parts: { if case .and(let inner) = $0 { inner } else { nil } }, term: { parser throws(PredicateFormatError) in try parser.parseNot() })
    }

    /// Terms read by `term` joined by the operator `kind` or its `keyword`, flattened: a term that
    /// is itself such a chain (`parts` gives its terms) adds its terms, not itself.
    private mutating func parseChain(of kind: Token.Kind, keyword word: String, joined: ([PredicateSyntax]) -> PredicateSyntax,
                                     parts: (PredicateSyntax) -> [PredicateSyntax]?,
                                     term: (inout PredicateParser) throws(PredicateFormatError) -> PredicateSyntax) throws(PredicateFormatError) -> PredicateSyntax {
        var terms: [PredicateSyntax] = []
        while true {
            let next = try term(&self)
            terms += parts(next) ?? [next]
            let token = try lexer.peek()
            guard token.kind == kind || keyword(token) == word else { break }
            _ = try lexer.next()
        }
        return terms.count == 1 ? terms[0] : joined(terms)
    }

    /// `NOT p` or `!p` (each one a level of nesting), else a primary predicate.
    private mutating func parseNot() throws(PredicateFormatError) -> PredicateSyntax {
        let token = try lexer.peek()
        guard token.kind == .not || keyword(token) == "NOT" else { return try parsePrimary() }
        _ = try lexer.next()
        try enterLevel(at: token.start)
        let negated = try parseNot()
        depth -= 1
        return .not(negated, position: token.start)
    }

    /// `( predicate )`, `TRUEPREDICATE`, `FALSEPREDICATE` or a comparison.
    private mutating func parsePrimary() throws(PredicateFormatError) -> PredicateSyntax {
        let token = try lexer.peek()
        if token.kind == .openParen {
            _ = try lexer.next()
            try enterLevel(at: token.start)
            let grouped = try parseOr()
            let close = try lexer.peek()
            guard close.kind == .closeParen else {
                throw error("expected ')' to close the '(' at \(token.start), found \(describe(close))", at: close.start)
            }
            _ = try lexer.next()
            depth -= 1
            return grouped
        }
        switch keyword(token) {
        case "TRUEPREDICATE":
            _ = try lexer.next()
            return .constant(true, position: token.start)
        case "FALSEPREDICATE":
            _ = try lexer.next()
            return .constant(false, position: token.start)
        default:
            return .comparison(try parseComparison())
        }
    }

    /// `[ANY|SOME|ALL|NONE] left operator[options] right`.
    private mutating func parseComparison() throws(PredicateFormatError) -> ComparisonSyntax {
        let first = try lexer.peek()
        var quantifier: Quantifier?
        switch keyword(first) {
        case "ANY", "SOME": quantifier = .any
        case "ALL": quantifier = .all
        case "NONE": quantifier = Quantifier.none
        default: quantifier = nil
        }
        if quantifier != nil { _ = try lexer.next() }
        let leftStart = try lexer.peek().start
        let left = try parseExpression(
            expecting: quantifier == nil ? "a key path, a value, '(' or NOT" : "a key path after \(lexer.text(of: first))")
        let leftText = lexer.text(from: leftStart, to: lexer.lastEnd, limit: 40)

        let operatorToken = try lexer.peek()
        guard let op = comparisonOperator(operatorToken) else {
            throw error("expected an operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES, IN, BETWEEN) "
                + "after \(leftText), found \(describe(operatorToken))", at: operatorToken.start)
        }
        _ = try lexer.next()
        let options = try parseOptions()
        let right = try parseExpression(expecting: "a key path, a value or a list after \(lexer.text(of: operatorToken))")
        return ComparisonSyntax(quantifier: quantifier, left: left, op: op, options: options, right: right,
                                position: operatorToken.start)
    }

    /// `[c]`, `[d]`, `[cd]` or `[dc]` right after an operator (spaces allowed before the `[`).
    private mutating func parseOptions() throws(PredicateFormatError) -> StringOptions {
        let open = try lexer.peek()
        guard open.kind == .openBracket else { return [] }
        let (text, closed) = lexer.readOptions(after: open)
        let shown = text.count > 20 ? String(text.prefix(20)) + "…" : text
        guard closed else {
            throw error("the option [\(shown) is not closed: write [c], [d] or [cd] after the operator", at: open.start)
        }
        var letters = ""
        for character in text where !character.isWhitespace {
            letters.append(character == "C" ? "c" : character == "D" ? "d" : character)
        }
        switch letters {
        case "c": return .caseInsensitive
        case "d": return .diacriticInsensitive
        case "cd", "dc": return [.caseInsensitive, .diacriticInsensitive]
        default: throw error("unknown option [\(shown)]: use [c], [d] or [cd]", at: open.start)
        }
    }

    /// The operator `token` spells, if it is one.
    private func comparisonOperator(_ token: Token) -> PredicateOperator? {
        if case .comparison(let op) = token.kind { return op }
        switch keyword(token) {
        case "BEGINSWITH": return .beginsWith
        case "ENDSWITH": return .endsWith
        case "CONTAINS": return .contains
        case "LIKE": return .like
        case "MATCHES": return .matches
        case "IN": return .in
        case "BETWEEN": return .between
        default: return nil
        }
    }
}

// MARK: - Expressions

extension PredicateParser {
    /// One side of a comparison, or an element of a list. `expected` names what fits here, for the
    /// message when something else is found.
    private mutating func parseExpression(expecting expected: String) throws(PredicateFormatError) -> ExpressionSyntax {
        let token = try lexer.peek()
        switch token.kind {
        case .word(let name, let escaped):
            if !escaped, let spelling = Self.keywordSpelling(name) {
                switch spelling {
                case "NIL", "NULL":
                    _ = try lexer.next()
                    return .value(.null, position: token.start)
                case "TRUE", "YES":
                    _ = try lexer.next()
                    return .value(.bool(true), position: token.start)
                case "FALSE", "NO":
                    _ = try lexer.next()
                    return .value(.bool(false), position: token.start)
                case "SUBQUERY":
                    return try parseSubquery()
                default:
                    throw error("expected \(expected), found '\(name)' (a keyword: write #\(name) for a key named \(name))",
                                at: token.start)
                }
            }
            _ = try lexer.next()
            return try parseKeyPathTail(components: [name], positions: [token.start])
        case .variable(let name):
            _ = try lexer.next()
            if try lexer.peek().kind == .dot {
                return try parseKeyPathTail(components: ["$" + name], positions: [token.start])
            }
            return .variable(name, position: token.start)
        case .number(let value):
            _ = try lexer.next()
            return .value(value, position: token.start)
        case .string(let text):
            _ = try lexer.next()
            return .value(.text(text), position: token.start)
        case .valuePlaceholder:
            _ = try lexer.next()
            return .value(try takeArgument(for: token), position: token.start)
        case .keyPathPlaceholder:
            _ = try lexer.next()
            let argument = try takeArgument(for: token)
            guard case .text(let text) = argument, let components = Self.keyPathComponents(text) else {
                throw error("%K needs a key path argument (a text such as trip.route_id), got \(Self.describe(argument))",
                            at: token.start)
            }
            return try parseKeyPathTail(components: components,
                                        positions: Array(repeating: token.start, count: components.count))
        case .openBrace:
            return try parseList()
        case .collectionOperator(let name):
            guard AggregateFunction(rawValue: "@" + name) != nil else { throw unknownCollectionOperator(token) }
            throw error("a key path cannot start with @\(name): put the collection before it, as in stop_times.@\(name)"
                + (name == "count" ? "" : ".departure_time"), at: token.start)
        default:
            throw error("expected \(expected), found \(describe(token))", at: token.start)
        }
    }

    /// The rest of a key path whose first components are read: more `.name`s, and at most one
    /// collection operator (`.@count`, or `.@max.attribute`), which turns it into an aggregate.
    private mutating func parseKeyPathTail(components: [String], positions: [Int]) throws(PredicateFormatError) -> ExpressionSyntax {
        var keyPath = KeyPathSyntax(components: components, positions: positions)
        guard let token = try parseNames(into: &keyPath, expecting: "a name or a collection operator"),
              case .collectionOperator(let name) = token.kind else { return .keyPath(keyPath) }
        guard let function = AggregateFunction(rawValue: "@" + name) else { throw unknownCollectionOperator(token) }
        _ = try lexer.next()
        return try finishAggregate(function, of: .keyPath(keyPath), at: token.start)
    }

    /// Appends `.name`s to `keyPath` while they come; returns a collection operator met after a
    /// dot (not read), nil at the key path's end. Anything else after a dot is a mistake: what
    /// was `expecting` there.
    private mutating func parseNames(into keyPath: inout KeyPathSyntax, expecting: String) throws(PredicateFormatError) -> Token? {
        while try lexer.peek().kind == .dot {
            _ = try lexer.next()
            let token = try lexer.peek()
            switch token.kind {
            case .word(let name, _):
                _ = try lexer.next()
                keyPath.components.append(name)
                keyPath.positions.append(token.start)
            case .collectionOperator:
                return token
            default:
                throw error("expected \(expecting) after '\(keyPath.text).', found \(describe(token))", at: token.start)
            }
        }
        return nil
    }

    /// What follows a collection operator: nothing after `@count`; `.attribute` after the others.
    private mutating func finishAggregate(_ function: AggregateFunction, of collection: ExpressionSyntax,
                                          at position: Int) throws(PredicateFormatError) -> ExpressionSyntax {
        if function == .count {
            if try lexer.peek().kind == .dot {
                _ = try lexer.next()
                let after = try lexer.peek()
                throw error("@count takes no attribute: end the key path at @count, found \(describe(after))", at: after.start)
            }
            return .aggregate(.count, collection: collection, attribute: nil, position: position)
        }
        let dot = try lexer.peek()
        guard dot.kind == .dot else {
            throw error("\(function.rawValue) needs an attribute after it, as in stop_times.\(function.rawValue).departure_time; "
                + "found \(describe(dot))", at: dot.start)
        }
        _ = try lexer.next()
        let first = try lexer.peek()
        guard case .word(let name, _) = first.kind else {
            if case .collectionOperator = first.kind { throw oneCollectionOperatorOnly(first) }
            throw error("expected an attribute name after \(function.rawValue)., found \(describe(first))", at: first.start)
        }
        _ = try lexer.next()
        let attribute = try parsePlainKeyPathTail(components: [name], positions: [first.start])
        return .aggregate(function, collection: collection, attribute: attribute, position: position)
    }

    /// More `.name`s after a key path that may not hold a collection operator (an aggregate's
    /// attribute, a SUBQUERY's collection).
    private mutating func parsePlainKeyPathTail(components: [String], positions: [Int]) throws(PredicateFormatError) -> KeyPathSyntax {
        var keyPath = KeyPathSyntax(components: components, positions: positions)
        if let token = try parseNames(into: &keyPath, expecting: "a name") { throw oneCollectionOperatorOnly(token) }
        return keyPath
    }

    /// `SUBQUERY(collection, $variable, predicate).@count`, as `.aggregate(.count, collection: .subquery(…))`.
    private mutating func parseSubquery() throws(PredicateFormatError) -> ExpressionSyntax {
        let keyword = try lexer.next()
        try enterLevel(at: keyword.start)
        let open = try lexer.peek()
        guard open.kind == .openParen else {
            throw error("expected '(' after SUBQUERY, as in SUBQUERY(stop_times, $x, $x.stop_sequence > 1).@count; "
                + "found \(describe(open))", at: open.start)
        }
        _ = try lexer.next()

        let first = try lexer.peek()
        let start: String
        switch first.kind {
        case .word(let name, let escaped) where escaped || Self.keywordSpelling(name) == nil: start = name
        case .variable(let name): start = "$" + name
        default:
            throw error("expected a key path as SUBQUERY's first argument, as in SUBQUERY(stop_times, $x, $x.stop_sequence > 1); "
                + "found \(describe(first))", at: first.start)
        }
        _ = try lexer.next()
        let collection = try parsePlainKeyPathTail(components: [start], positions: [first.start])
        try expectComma(after: "SUBQUERY's key path")

        let variableToken = try lexer.peek()
        guard case .variable(let variable) = variableToken.kind else {
            throw error("expected a variable such as $x as SUBQUERY's second argument, found \(describe(variableToken))",
                        at: variableToken.start)
        }
        _ = try lexer.next()
        try expectComma(after: "$" + variable)

        let predicate = try parseOr()
        let close = try lexer.peek()
        guard close.kind == .closeParen else {
            throw error("expected ')' to close the SUBQUERY( at \(keyword.start), found \(describe(close))", at: close.start)
        }
        _ = try lexer.next()
        depth -= 1

        let subquery = ExpressionSyntax.subquery(collection: collection, variable: variable, predicate: predicate,
                                                 position: keyword.start)
        let dot = try lexer.peek()
        guard dot.kind == .dot else {
            throw error("SUBQUERY(…) must be followed by .@count, found \(describe(dot))", at: dot.start)
        }
        _ = try lexer.next()
        let count = try lexer.peek()
        guard case .collectionOperator("count") = count.kind else {
            throw error("SUBQUERY(…) must be followed by .@count, found \(describe(count))", at: count.start)
        }
        _ = try lexer.next()
        return try finishAggregate(.count, of: subquery, at: count.start)
    }

    /// `{a, b, …}` (possibly empty).
    private mutating func parseList() throws(PredicateFormatError) -> ExpressionSyntax {
        let open = try lexer.next()
        try enterLevel(at: open.start)
        var elements: [ExpressionSyntax] = []
        if try lexer.peek().kind == .closeBrace {
            _ = try lexer.next()
        } else {
            while true {
                elements.append(try parseExpression(expecting: "a value, %@, a $VARIABLE or a key path in the list"))
                let token = try lexer.peek()
                _ = try lexer.next()
                if token.kind == .comma { continue }
                if token.kind == .closeBrace { break }
                throw error("expected ',' or '}' in the list opened at \(open.start), found \(describe(token))", at: token.start)
            }
        }
        depth -= 1
        return .list(elements, position: open.start)
    }

    /// Reads a `,` or says what it should follow.
    private mutating func expectComma(after what: String) throws(PredicateFormatError) {
        let token = try lexer.peek()
        guard token.kind == .comma else { throw error("expected ',' after \(what), found \(describe(token))", at: token.start) }
        _ = try lexer.next()
    }

    /// The argument for the placeholder `token` (`%@` or `%K`), the next one in order.
    private mutating func takeArgument(for token: Token) throws(PredicateFormatError) -> PredicateValue {
        guard argumentsUsed < arguments.count else {
            let given = switch arguments.count {
            case 0: "none were given"
            case 1: "only 1 was given"
            default: "only \(arguments.count) were given"
            }
            throw error("\(lexer.text(of: token)) is argument \(argumentsUsed + 1) but \(given): "
                + "give one argument for each %@ and %K", at: token.start)
        }
        argumentsUsed += 1
        return arguments[argumentsUsed - 1]
    }

    /// Counts one more level of nesting, refusing to go deeper than `maximumDepth`.
    private mutating func enterLevel(at position: Int) throws(PredicateFormatError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("the predicate nests deeper than \(Self.maximumDepth) levels: split it into simpler predicates",
                        at: position)
        }
    }
}

// MARK: - Words and messages

extension PredicateParser {
    /// The words of the language (upper case); a key spelled like one needs a leading `#`.
    private static let keywords: Set<String> = [
        "AND", "OR", "NOT", "ANY", "SOME", "ALL", "NONE", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH", "CONTAINS",
        "LIKE", "MATCHES", "TRUEPREDICATE", "FALSEPREDICATE", "NIL", "NULL", "TRUE", "FALSE", "YES", "NO", "SUBQUERY",
    ]

    /// `name` in upper case if it is a keyword (ASCII letters only: `ın` is not `IN`), else nil.
    static func keywordSpelling(_ name: String) -> String? {
        guard name.utf8.count <= 14 else { return nil }  // FALSEPREDICATE is the longest
        var upper = ""
        for byte in name.utf8 {
            guard byte < 0x80 else { return nil }
            upper.append(Character(Unicode.Scalar(byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte)))
        }
        return keywords.contains(upper) ? upper : nil
    }

    /// The keyword `token` is (not `#`-escaped), in upper case, else nil.
    private func keyword(_ token: Token) -> String? {
        guard case .word(let name, escaped: false) = token.kind else { return nil }
        return Self.keywordSpelling(name)
    }

    /// The components of a `%K` argument (`trip.route_id`), or nil if it is not dotted names.
    static func keyPathComponents(_ text: String) -> [String]? {
        var components: [String] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard let first = part.first, Lexer.startsName(first), part.dropFirst().allSatisfy(Lexer.continuesName) else {
                return nil
            }
            components.append(String(part))
        }
        return components
    }

    /// `token` as a message shows it: quoted source text, or "the end of the predicate".
    private func describe(_ token: Token) -> String {
        if token.kind == .end { return "the end of the predicate" }
        let text = lexer.text(from: token.start, to: token.end, limit: 24)
        if case .string = token.kind { return text }
        return "'" + text + "'"
    }

    /// An argument as a message shows it.
    private static func describe(_ value: PredicateValue) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "TRUE" : "FALSE"
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .text(let text): return "'" + (text.count > 30 ? String(text.prefix(30)) + "…" : text) + "'"
        }
    }

    /// "no arguments", "1 argument", "3 arguments".
    private func count(_ number: Int, _ noun: String) -> String {
        switch number {
        case 0: return "no \(noun)s"
        case 1: return "1 \(noun)"
        default: return "\(number) \(noun)s"
        }
    }

    private func unknownCollectionOperator(_ token: Token) -> PredicateFormatError {
        error("unknown collection operator \(lexer.text(of: token)): use @count, @sum, @min, @max or @avg", at: token.start)
    }

    private func oneCollectionOperatorOnly(_ token: Token) -> PredicateFormatError {
        error("a key path takes one collection operator: remove \(lexer.text(of: token))", at: token.start)
    }

    private func error(_ message: String, at position: Int) -> PredicateFormatError {
        PredicateFormatError(message, in: format, at: position)
    }
}
