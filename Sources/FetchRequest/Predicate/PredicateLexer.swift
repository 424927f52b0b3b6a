extension PredicateParser {
    /// One word or symbol of the format, with the characters it spans.
    struct Token {
        enum Kind: Equatable {
            /// A name or keyword; `escaped` if written with a leading `#` (then never a keyword).
            case word(String, escaped: Bool)
            /// `$name` (the name without `$`).
            case variable(String)
            /// `@name` (the name without `@`).
            case collectionOperator(String)
            /// An integer or real literal.
            case number(PredicateValue)
            /// A quoted string, escapes resolved.
            case string(String)
            /// `%@`
            case valuePlaceholder
            /// `%K`
            case keyPathPlaceholder
            /// `==`, `!=`, `<`, … (the keyword operators are words).
            case comparison(PredicateOperator)
            /// `&&`, `||`, `!`
            case and, or, not
            case openParen, closeParen, openBrace, closeBrace, openBracket, comma, dot
            /// Any other character, for the parser to report in context.
            case other
            /// After the last token.
            case end
        }

        var kind: Kind
        var start: Int
        var end: Int
    }

    /// Cuts the format into tokens on demand, one token of lookahead, each character read once.
    struct Lexer {
        let characters: [Character]
        /// The next character to read.
        private var index = 0
        private var peeked: Token?
        /// Where the last token taken with `next()` ends.
        private(set) var lastEnd = 0
        private let format: String

        init(format: String) {
            self.format = format
            self.characters = Array(format)
        }

        /// The next token, without taking it.
        mutating func peek() throws(PredicateFormatError) -> Token {
            if let peeked { return peeked }
            let token = try scan()
            peeked = token
            return token
        }

        /// Takes the next token.
        mutating func next() throws(PredicateFormatError) -> Token {
            let token = try peek()
            peeked = nil
            lastEnd = token.end
            return token
        }

        /// The raw text between `open` (a peeked `[`) and the next `]`, taking both; `closed` is
        /// false if the format ends first.
        mutating func readOptions(after open: Token) -> (text: String, closed: Bool) {
            peeked = nil
            index = open.end
            var text = ""
            while index < characters.count {
                let character = characters[index]
                index += 1
                if character == "]" {
                    lastEnd = index
                    return (text, true)
                }
                text.append(character)
            }
            lastEnd = index
            return (text, false)
        }

        /// The source text of `token`.
        func text(of token: Token) -> String { text(from: token.start, to: token.end, limit: 40) }

        /// The source text from `start` to `end`, cut to `limit` characters with "…".
        func text(from start: Int, to end: Int, limit: Int) -> String {
            let low = max(0, min(start, characters.count))
            let high = max(low, min(end, characters.count))
            if high - low > limit { return String(characters[low..<(low + limit)]) + "…" }
            return String(characters[low..<high])
        }

        static func startsName(_ character: Character) -> Bool {
            character == "_" || character.isLetter
        }

        static func continuesName(_ character: Character) -> Bool {
            character == "_" || character.isLetter || isDigit(character)
        }

        static func isDigit(_ character: Character) -> Bool {
            guard character.isASCII, let value = character.asciiValue else { return false }
            return value >= 0x30 && value <= 0x39
        }

        private func character(at offset: Int) -> Character? {
            offset < characters.count ? characters[offset] : nil
        }

        private func error(_ message: String, at position: Int) -> PredicateFormatError {
            PredicateFormatError(message, in: format, at: position)
        }

        /// Reads the token after any whitespace; `.end` past the last character.
        private mutating func scan() throws(PredicateFormatError) -> Token {
            while index < characters.count, characters[index].isWhitespace { index += 1 }
            let start = index
            guard index < characters.count else { return Token(kind: .end, start: start, end: start) }
            let first = characters[index]
            index += 1
            let kind: Token.Kind
            switch first {
            case "(": kind = .openParen
            case ")": kind = .closeParen
            case "{": kind = .openBrace
            case "}": kind = .closeBrace
            case "[": kind = .openBracket
            case ",": kind = .comma
            case ".": kind = .dot
            case "=", "!", "<", ">", "&", "|": kind = scanOperator(first)
            case "'", "\"": kind = .string(try scanString(quote: first, start: start))
            case "%": kind = try scanPlaceholder(start: start)
            case "$", "@", "#": kind = scanMarkedName(first)
            default: kind = try scanNumberOrWord(first, start: start)
            }
            return Token(kind: kind, start: start, end: index)
        }

        /// The operator `first` (just taken) starts: `=`/`==`, `=<`, `=>`, `!`/`!=`, `<`, `<=`,
        /// `<>`, `>`, `>=`, `&&`, `||` (a lone `&` or `|` is `.other`).
        private mutating func scanOperator(_ first: Character) -> Token.Kind {
            switch first {
            case "=":
                switch character(at: index) {
                case "=": index += 1; return .comparison(.equal)
                case "<": index += 1; return .comparison(.lessOrEqual)
                case ">": index += 1; return .comparison(.greaterOrEqual)
                default: return .comparison(.equal)
                }
            case "!":
                if character(at: index) == "=" { index += 1; return .comparison(.notEqual) } else { return .not }
            case "<":
                switch character(at: index) {
                case "=": index += 1; return .comparison(.lessOrEqual)
                case ">": index += 1; return .comparison(.notEqual)
                default: return .comparison(.less)
                }
            case ">":
                if character(at: index) == "=" { index += 1; return .comparison(.greaterOrEqual) } else { return .comparison(.greater) }
            case "&":
                if character(at: index) == "&" { index += 1; return .and } else { return .other }
            default:
                if character(at: index) == "|" { index += 1; return .or } else { return .other }
            }
        }

        /// `%@` or `%K` after the `%` at `start`; any other `%` is an error.
        private mutating func scanPlaceholder(start: Int) throws(PredicateFormatError) -> Token.Kind {
            switch character(at: index) {
            case "@": index += 1; return .valuePlaceholder
            case "K": index += 1; return .keyPathPlaceholder
            default: throw error("only %@ (a value) and %K (a key path) are placeholders here", at: start)
            }
        }

        /// `$name` (a variable), `@name` (a collection operator) or `#name` (a word that is never a
        /// keyword) after `mark`; the mark alone is `.other`.
        private mutating func scanMarkedName(_ mark: Character) -> Token.Kind {
            guard let next = character(at: index), Self.startsName(next) else { return .other }
            let name = scanName()
            return mark == "$" ? .variable(name) : mark == "@" ? .collectionOperator(name) : .word(name, escaped: true)
        }

        /// A number (`first` a digit, or `-` before one), a word (`first` starts a name), or
        /// `.other`, from `start`.
        private mutating func scanNumberOrWord(_ first: Character, start: Int) throws(PredicateFormatError) -> Token.Kind {
            if first == "-" {
                guard let next = character(at: index), Self.isDigit(next) else { return .other }
                return .number(try scanNumber(start: start))
            }
            if Self.isDigit(first) { return .number(try scanNumber(start: start)) }
            guard Self.startsName(first) else { return .other }
            index = start
            return .word(scanName(), escaped: false)
        }

        /// A name from `index` (whose first character starts a name).
        private mutating func scanName() -> String {
            let start = index
            index += 1
            while index < characters.count, Self.continuesName(characters[index]) { index += 1 }
            return String(characters[start..<index])
        }

        /// `-?digits(.digits)?([eE][+-]?digits)?` from `start`: an integer, or a real if it has a
        /// fraction or an exponent.
        private mutating func scanNumber(start: Int) throws(PredicateFormatError) -> PredicateValue {
            index = start
            if characters[index] == "-" { index += 1 }
            skipDigits()
            var isReal = false
            if character(at: index) == ".", let next = character(at: index + 1), Self.isDigit(next) {
                isReal = true
                index += 1
                skipDigits()
            }
            if let e = character(at: index), e == "e" || e == "E" {
                var exponent = index + 1
                if let sign = character(at: exponent), sign == "+" || sign == "-" { exponent += 1 }
                if let digit = character(at: exponent), Self.isDigit(digit) {
                    isReal = true
                    index = exponent
                    skipDigits()
                }
            }
            let text = String(characters[start..<index])
            let shown = text.count > 30 ? String(text.prefix(30)) + "…" : text
            if isReal {
                guard let number = Double(text), number.isFinite else {
                    throw error("the number \(shown) is too large for a real number", at: start)
                }
                return .real(number)
            }
            guard let number = Int(text) else {
                throw error("the number \(shown) does not fit in a 64-bit integer: pass it as text with %@", at: start)
            }
            return .integer(number)
        }

        private mutating func skipDigits() {
            while index < characters.count, Self.isDigit(characters[index]) { index += 1 }
        }

        /// The rest of a string opened by `quote` at `start`, with `\\ \' \" \n \t` resolved.
        private mutating func scanString(quote: Character, start: Int) throws(PredicateFormatError) -> String {
            var text = ""
            while index < characters.count {
                let character = characters[index]
                index += 1
                if character == quote { return text }
                guard character == "\\" else {
                    text.append(character)
                    continue
                }
                guard index < characters.count else { break }
                let escaped = characters[index]
                index += 1
                switch escaped {
                case "\\": text.append("\\")
                case "'": text.append("'")
                case "\"": text.append("\"")
                case "n": text.append("\n")
                case "t": text.append("\t")
                default:
                    throw error("unknown escape \\\(escaped) in a string: use \\\\, \\', \\\", \\n or \\t", at: index - 2)
                }
            }
            throw error("unterminated string: add the closing \(quote)", at: start)
        }
    }
}
