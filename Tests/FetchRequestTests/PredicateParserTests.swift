import XCTest
@testable import FetchRequest

/// The NSPredicate format reader: the exact trees it builds, and every mistake it reports with its place.
final class PredicateParserTests: XCTestCase {

    // MARK: - Operators and options

    func testEachOperatorAndItsAlternativeSpellings() {
        let spellings: [(String, PredicateOperator)] = [
            ("==", .equal), ("=", .equal), ("!=", .notEqual), ("<>", .notEqual),
            ("<", .less), ("<=", .lessOrEqual), ("=<", .lessOrEqual),
            (">", .greater), (">=", .greaterOrEqual), ("=>", .greaterOrEqual),
            ("BEGINSWITH", .beginsWith), ("beginsWith", .beginsWith), ("ENDSWITH", .endsWith), ("endswith", .endsWith),
            ("CONTAINS", .contains), ("Contains", .contains), ("LIKE", .like), ("like", .like),
            ("MATCHES", .matches), ("matches", .matches),
        ]
        for (spelling, op) in spellings {
            assertParses("a \(spelling) 1",
                         as: compare(path("a", at: 0), op, value(.integer(1), at: 3 + spelling.count), at: 2))
        }
    }

    func testSymbolOperatorsNeedNoSpaces() {
        assertParses("a==1", as: compare(path("a", at: 0), .equal, value(.integer(1), at: 3), at: 1))
        assertParses("a<=-1", as: compare(path("a", at: 0), .lessOrEqual, value(.integer(-1), at: 3), at: 1))
        assertParses("a<>'x'", as: compare(path("a", at: 0), .notEqual, value(.text("x"), at: 3), at: 1))
        assertParses("a!=b", as: compare(path("a", at: 0), .notEqual, path("b", at: 3), at: 1))
    }

    func testInTakesAListOfValuesVariablesPlaceholdersAndKeyPaths() {
        assertParses("route_type IN {0, 'bus', $T, %@, nil, other.id}", [.integer(3)], as: compare(
            path("route_type", at: 0), .in,
            .list([
                value(.integer(0), at: 15), value(.text("bus"), at: 18), .variable("T", position: 25),
                value(.integer(3), at: 29), value(.null, at: 33), path("other.id", at: 38),
            ], position: 14),
            at: 11))
        assertParses("x in {}", as: compare(path("x", at: 0), .in, .list([], position: 5), at: 2))
        assertParses("x IN %@", [.text("a")], as: compare(path("x", at: 0), .in, value(.text("a"), at: 5), at: 2))
    }

    func testBetweenTakesATwoValueList() {
        assertParses("stop_lat BETWEEN {47.5, 48}", as: compare(
            path("stop_lat", at: 0), .between,
            .list([value(.real(47.5), at: 18), value(.integer(48), at: 24)], position: 17), at: 9))
        assertParses("x between{-1,1}", as: compare(
            path("x", at: 0), .between, .list([value(.integer(-1), at: 10), value(.integer(1), at: 13)], position: 9), at: 2))
    }

    func testEachStringOption() {
        let options: [(String, StringOptions)] = [
            ("[c]", .caseInsensitive), ("[d]", .diacriticInsensitive),
            ("[cd]", [.caseInsensitive, .diacriticInsensitive]), ("[dc]", [.caseInsensitive, .diacriticInsensitive]),
            ("[C]", .caseInsensitive), ("[CD]", [.caseInsensitive, .diacriticInsensitive]),
        ]
        for (written, expected) in options {
            assertParses("name ==\(written) 'x'", as: compare(
                path("name", at: 0), .equal, value(.text("x"), at: 8 + written.count), at: 5, options: expected))
        }
    }

    func testOptionsMayFollowTheOperatorAfterSpaces() {
        assertParses("name BEGINSWITH [cd] 'al'", as: compare(
            path("name", at: 0), .beginsWith, value(.text("al"), at: 21), at: 5,
            options: [.caseInsensitive, .diacriticInsensitive]))
        assertParses("name LIKE[c]'a*'", as: compare(
            path("name", at: 0), .like, value(.text("a*"), at: 12), at: 5, options: .caseInsensitive))
    }

    func testUnknownOptionIsAnErrorAtItsBracket() {
        assertFails("name ==[x] 'a'", at: 7, saying: "unknown option [x]", "use [c], [d] or [cd]")
        assertFails("name CONTAINS[n] 'a'", at: 13, saying: "unknown option [n]")
        assertFails("name ==[] 'a'", at: 7, saying: "unknown option []")
        assertFails("name ==[cdc] 'a'", at: 7, saying: "unknown option [cdc]")
        assertFails("name ==[c 'a'", at: 7, saying: "not closed", "[c]")
    }

    // MARK: - Precedence and structure

    func testNotBindsTighterThanAnd() {
        assertParses("NOT a == 1 AND b == 2", as: .and([.not(a1(at: 4), position: 0), b2(at: 15)]))
    }

    func testAndBindsTighterThanOr() {
        assertParses("a == 1 OR b == 2 AND c == 3", as: .or([a1(at: 0), .and([b2(at: 10), c3(at: 21)])]))
        assertParses("a == 1 AND b == 2 OR c == 3", as: .or([.and([a1(at: 0), b2(at: 11)]), c3(at: 21)]))
    }

    func testParenthesesOverridePrecedence() {
        assertParses("(a == 1 OR b == 2) AND c == 3", as: .and([.or([a1(at: 1), b2(at: 11)]), c3(at: 23)]))
        assertParses("NOT (a == 1 AND b == 2)", as: .not(.and([a1(at: 5), b2(at: 16)]), position: 0))
        assertParses("((a == 1))", as: a1(at: 2))
    }

    func testChainsAreFlattenedIncludingParenthesisedOnes() {
        assertParses("a == 1 AND (b == 2 AND c == 3) && d == 4",
                     as: .and([a1(at: 0), b2(at: 12), c3(at: 23), d4(at: 34)]))
        assertParses("(a == 1 || b == 2) OR c == 3 or d == 4",
                     as: .or([a1(at: 1), b2(at: 11), c3(at: 22), d4(at: 32)]))
        // Different connectives are not merged.
        assertParses("(a == 1 OR b == 2) AND (c == 3 OR d == 4)",
                     as: .and([.or([a1(at: 1), b2(at: 11)]), .or([c3(at: 24), d4(at: 34)])]))
    }

    func testNotSpellingsAndNesting() {
        assertParses("!a == 1", as: .not(a1(at: 1), position: 0))
        assertParses("not a == 1", as: .not(a1(at: 4), position: 0))
        assertParses("NOT NOT a == 1", as: .not(.not(a1(at: 8), position: 4), position: 0))
        assertParses("!(a == 1)", as: .not(a1(at: 2), position: 0))
    }

    func testQuantifiersIncludingSomeAsAny() {
        let quantifiers: [(String, Quantifier)] = [("ANY", .any), ("any", .any), ("SOME", .any), ("ALL", .all), ("NONE", .none)]
        for (written, quantifier) in quantifiers {
            let offset = written.count + 1
            assertParses("\(written) trips.route_id == 'M1'", as: compare(
                path("trips.route_id", at: offset), .equal, value(.text("M1"), at: offset + 18), at: offset + 15,
                quantifier: quantifier))
        }
    }

    func testTruePredicateAndFalsePredicate() {
        assertParses("TRUEPREDICATE", as: .constant(true, position: 0))
        assertParses("  falsepredicate", as: .constant(false, position: 2))
        assertParses("TRUEPREDICATE OR a == 1", as: .or([.constant(true, position: 0), a1(at: 17)]))
        assertParses("NOT FALSEPREDICATE", as: .not(.constant(false, position: 4), position: 0))
    }

    // MARK: - Values

    func testLiteralKeywordsAreValues() {
        let literals: [(String, PredicateValue)] = [
            ("nil", .null), ("NIL", .null), ("NULL", .null), ("null", .null),
            ("TRUE", .bool(true)), ("true", .bool(true)), ("YES", .bool(true)), ("yes", .bool(true)),
            ("FALSE", .bool(false)), ("false", .bool(false)), ("NO", .bool(false)), ("no", .bool(false)),
        ]
        for (written, literal) in literals {
            assertParses("a == \(written)", as: compare(path("a", at: 0), .equal, value(literal, at: 5), at: 2))
        }
        assertParses("nil == a", as: compare(value(.null, at: 0), .equal, path("a", at: 7), at: 4))
    }

    func testIntegersNegativesRealsAndExponents() {
        let numbers: [(String, PredicateValue)] = [
            ("42", .integer(42)), ("-5", .integer(-5)), ("0", .integer(0)), ("-0", .integer(0)),
            ("3.5", .real(3.5)), ("-0.5", .real(-0.5)), ("1e3", .real(1000)), ("2.5E-2", .real(0.025)),
            ("-1e+2", .real(-100)), ("9223372036854775807", .integer(Int.max)),
        ]
        for (written, number) in numbers {
            assertParses("x > \(written)", as: compare(path("x", at: 0), .greater, value(number, at: 4), at: 2))
        }
    }

    func testNumbersThatDoNotFitAreErrors() {
        assertFails("x > 99999999999999999999", at: 4, saying: "does not fit in a 64-bit integer")
        assertFails("x > 1e999", at: 4, saying: "too large")
    }

    func testStringsInBothQuoteStyles() {
        assertParses("a == 'single'", as: compare(path("a", at: 0), .equal, value(.text("single"), at: 5), at: 2))
        assertParses(#"a == "double""#, as: compare(path("a", at: 0), .equal, value(.text("double"), at: 5), at: 2))
        assertParses(#"a == "it's""#, as: compare(path("a", at: 0), .equal, value(.text("it's"), at: 5), at: 2))
        assertParses(#"a == 'say "hi"'"#, as: compare(path("a", at: 0), .equal, value(.text(#"say "hi""#), at: 5), at: 2))
        assertParses("a == ''", as: compare(path("a", at: 0), .equal, value(.text(""), at: 5), at: 2))
        assertParses("a == 'Łazienki ü'", as: compare(path("a", at: 0), .equal, value(.text("Łazienki ü"), at: 5), at: 2))
    }

    func testStringEscapes() {
        let escapes: [(String, String)] = [
            (#"'a\\b'"#, #"a\b"#), (#"'it\'s'"#, "it's"), (#""q\"q""#, #"q"q"#), (#"'q\"q'"#, #"q"q"#),
            (#"'line\nbreak'"#, "line\nbreak"), (#"'tab\tbed'"#, "tab\tbed"),
        ]
        for (written, text) in escapes {
            assertParses("a == \(written)", as: compare(path("a", at: 0), .equal, value(.text(text), at: 5), at: 2))
        }
        assertFails(#"a == 'x\qy'"#, at: 7, saying: #"unknown escape \q"#)
    }

    func testUnterminatedStringIsAnErrorAtItsOpeningQuote() {
        assertFails("name == 'abc", at: 8, saying: "unterminated string: add the closing '")
        assertFails(#"name == "abc"#, at: 8, saying: #"unterminated string: add the closing ""#)
        assertFails(#"name == 'abc\'"#, at: 8, saying: "unterminated string")
        assertFails(#"name == 'abc\"#, at: 8, saying: "unterminated string")
    }

    // MARK: - Placeholders and variables

    func testPlaceholdersTakeArgumentsInOrder() {
        let arguments: [PredicateValue] = [.text("stop_name"), .text("Alex"), .text("trip.route_id"), .integer(5)]
        assertParses("%K == %@ AND %K BEGINSWITH %@", arguments, as: .and([
            compare(.keyPath(KeyPathSyntax(components: ["stop_name"], positions: [0])), .equal,
                    value(.text("Alex"), at: 6), at: 3),
            compare(.keyPath(KeyPathSyntax(components: ["trip", "route_id"], positions: [13, 13])), .beginsWith,
                    value(.integer(5), at: 27), at: 16),
        ]))
    }

    func testValuePlaceholderTakesAnyValue() {
        for argument: PredicateValue in [.null, .bool(false), .integer(-3), .real(2.5), .text("x'y")] {
            assertParses("a == %@", [argument], as: compare(path("a", at: 0), .equal, value(argument, at: 5), at: 2))
        }
    }

    func testKeyPathPlaceholderMayBeFollowedByACollectionOperator() {
        assertParses("%K.@count > 2", [.text("stop_times")], as: compare(
            .aggregate(.count, collection: .keyPath(KeyPathSyntax(components: ["stop_times"], positions: [0])),
                       attribute: nil, position: 3),
            .greater, value(.integer(2), at: 12), at: 10))
        assertParses("%K.stop_name == 'A'", [.text("trip")], as: compare(
            .keyPath(KeyPathSyntax(components: ["trip", "stop_name"], positions: [0, 3])),
            .equal, value(.text("A"), at: 16), at: 13))
    }

    func testTooFewArgumentsIsAnErrorAtThePlaceholder() {
        assertFails("a == %@ AND b == %@ AND c == %@", [.integer(1), .integer(2)], at: 29,
                    saying: "%@ is argument 3 but only 2 were given")
        assertFails("a == %@", at: 5, saying: "%@ is argument 1 but none were given")
        assertFails("%@ == %K", [.integer(1)], at: 6, saying: "%K is argument 2 but only 1 was given")
    }

    func testTooManyArgumentsIsAnErrorAtTheEnd() {
        let format = "a == %@ AND b == %@"
        assertFails(format, [.integer(1), .integer(2), .integer(3)], at: format.count,
                    saying: "the format uses 2 arguments, 3 were given")
        assertFails("a == 1", [.integer(1)], at: 6, saying: "the format uses no arguments, 1 was given")
    }

    func testKeyPathPlaceholderNeedsATextKeyPath() {
        assertFails("%K == 1", [.integer(5)], at: 0, saying: "%K needs a key path argument", "got 5")
        assertFails("a == 1 AND %K == 1", [.text("stop name")], at: 11, saying: "%K needs a key path argument", "got 'stop name'")
        assertFails("%K == 1", [.text("a..b")], at: 0, saying: "%K needs a key path argument")
        assertFails("%K == 1", [.text("")], at: 0, saying: "%K needs a key path argument")
        assertFails("%K == 1", [.text("1st")], at: 0, saying: "%K needs a key path argument")
        assertFails("%K == 1", [.null], at: 0, saying: "got nil")
    }

    func testOtherPercentSequencesAreRefused() {
        for sequence in ["%d", "%f", "%s", "%k", "%%", "%"] {
            assertFails("a == \(sequence)", [.integer(1)], at: 5,
                        saying: "only %@ (a value) and %K (a key path) are placeholders here")
        }
    }

    func testVariablesAloneAndAsKeyPathStarts() {
        assertParses("stop_id == $STOP", as: compare(path("stop_id", at: 0), .equal, .variable("STOP", position: 11), at: 8))
        assertParses("$x.stop.stop_name == 'A'", as: compare(
            path("$x.stop.stop_name", at: 0), .equal, value(.text("A"), at: 21), at: 18))
        assertFails("a == $", at: 5, saying: "expected a key path, a value or a list after ==", "found '$'")
    }

    // MARK: - Key paths and collection operators

    func testKeyPathComponentsKeepTheirPositions() {
        assertParses("trip.route.route_short_name == 'M'", as: compare(
            .keyPath(KeyPathSyntax(components: ["trip", "route", "route_short_name"], positions: [0, 5, 11])),
            .equal, value(.text("M"), at: 31), at: 28))
        assertParses("größe_2 == _x1", as: compare(path("größe_2", at: 0), .equal, path("_x1", at: 11), at: 8))
    }

    func testKeywordKeysAreWrittenWithAHash() {
        assertParses("#IN == 1", as: compare(path("IN", at: 0), .equal, value(.integer(1), at: 7), at: 4))
        assertParses("a.#in.#Yes == #nil", as: compare(
            .keyPath(KeyPathSyntax(components: ["a", "in", "Yes"], positions: [0, 2, 6])), .equal,
            .keyPath(KeyPathSyntax(components: ["nil"], positions: [14])), at: 11))
        assertFails("IN == 1", at: 0, saying: "found 'IN'", "write #IN")
        assertFails("a == AND", at: 5, saying: "found 'AND'", "write #AND")
    }

    func testCountOperatorMakesAnAggregate() {
        assertParses("trip.stop_times.@count > 5", as: compare(
            .aggregate(.count, collection: path("trip.stop_times", at: 0), attribute: nil, position: 16),
            .greater, value(.integer(5), at: 25), at: 23))
    }

    func testSumMinMaxAvgTakeAnAttribute() {
        let functions: [(String, AggregateFunction)] = [("@sum", .sum), ("@min", .min), ("@max", .max), ("@avg", .average)]
        for (written, function) in functions {
            let format = "stop_times.\(written).departure.seconds >= 10"
            assertParses(format, as: compare(
                .aggregate(function, collection: path("stop_times", at: 0),
                           attribute: key("departure.seconds", at: 16), position: 11),
                .greaterOrEqual, value(.integer(10), at: 37), at: 34))
        }
    }

    func testCountTakesNoAttribute() {
        assertFails("stop_times.@count.stop_id > 1", at: 18, saying: "@count takes no attribute")
    }

    func testSumMinMaxAvgWithoutAttributeIsAnError() {
        assertFails("stop_times.@max > 1", at: 16, saying: "@max needs an attribute")
        assertFails("stop_times.@avg", at: 15, saying: "@avg needs an attribute", "the end of the predicate")
    }

    func testUnknownCollectionOperatorNamesTheFive() {
        assertFails("stop_times.@median.x > 1", at: 11, saying: "unknown collection operator @median",
                    "@count, @sum, @min, @max or @avg")
        assertFails("@distinctUnionOfObjects.x == 1", at: 0, saying: "unknown collection operator")
    }

    func testKeyPathCannotStartWithACollectionOperator() {
        assertFails("@count > 1", at: 0, saying: "a key path cannot start with @count", "stop_times.@count")
        assertFails("a == @max.x", at: 5, saying: "a key path cannot start with @max")
    }

    func testAKeyPathTakesOneCollectionOperator() {
        assertFails("a.@max.b.@count > 1", at: 9, saying: "one collection operator")
        assertFails("a.@max.@count > 1", at: 7, saying: "one collection operator")
    }

    // MARK: - SUBQUERY

    func testSubqueryCountWithVariableKeyPathsInside() {
        let format = "SUBQUERY(stop_times, $st, $st.stop.stop_name BEGINSWITH 'A' AND $st.stop_sequence > 3).@count > 0"
        let inner = PredicateSyntax.and([
            compare(path("$st.stop.stop_name", at: 26), .beginsWith, value(.text("A"), at: 56), at: 45),
            compare(path("$st.stop_sequence", at: 64), .greater, value(.integer(3), at: 84), at: 82),
        ])
        assertParses(format, as: compare(
            .aggregate(.count,
                       collection: .subquery(collection: key("stop_times", at: 9), variable: "st", predicate: inner, position: 0),
                       attribute: nil, position: 87),
            .greater, value(.integer(0), at: 96), at: 94))
    }

    func testNestedSubqueryOverAVariableKeyPath() {
        let format = "subquery(trips, $t, SUBQUERY($t.stop_times, $s, $s.x == 1).@count > 0).@count == 2"
        let innermost = compare(path("$s.x", at: 48), .equal, value(.integer(1), at: 56), at: 53)
        let inner = compare(
            .aggregate(.count, collection: .subquery(collection: key("$t.stop_times", at: 29), variable: "s",
                                                     predicate: innermost, position: 20),
                       attribute: nil, position: 59),
            .greater, value(.integer(0), at: 68), at: 66)
        assertParses(format, as: compare(
            .aggregate(.count, collection: .subquery(collection: key("trips", at: 9), variable: "t", predicate: inner, position: 0),
                       attribute: nil, position: 71),
            .equal, value(.integer(2), at: 81), at: 78))
    }

    func testSubqueryWithoutCountIsAnError() {
        assertFails("SUBQUERY(stop_times, $x, $x.a == 1) > 0", at: 36, saying: "SUBQUERY(…) must be followed by .@count")
        assertFails("SUBQUERY(stop_times, $x, $x.a == 1).@max.b > 0", at: 36, saying: "must be followed by .@count")
        assertFails("SUBQUERY(stop_times, $x, $x.a == 1).@count.b > 0", at: 43, saying: "@count takes no attribute")
    }

    func testSubqueryArgumentMistakes() {
        assertFails("SUBQUERY > 1", at: 9, saying: "expected '(' after SUBQUERY")
        assertFails("SUBQUERY(1, $x, $x == 1).@count > 0", at: 9, saying: "expected a key path as SUBQUERY's first argument")
        assertFails("SUBQUERY(a.@count, $x, $x == 1).@count > 0", at: 11, saying: "one collection operator")
        assertFails("SUBQUERY(a $x, $x == 1).@count > 0", at: 11, saying: "expected ',' after SUBQUERY's key path")
        assertFails("SUBQUERY(a, x, x == 1).@count > 0", at: 12, saying: "expected a variable such as $x")
        assertFails("SUBQUERY(a, $x $x == 1).@count > 0", at: 15, saying: "expected ',' after $x")
        assertFails("SUBQUERY(a, $x, $x == 1", at: 23, saying: "expected ')' to close the SUBQUERY( at 0")
    }

    // MARK: - Syntax errors

    func testEmptyFormatIsAnError() {
        for format in ["", "   ", "\n\t"] {
            assertFails(format, at: 0, saying: "the predicate is empty: give a comparison such as stop_name == 'X', or TRUEPREDICATE")
        }
    }

    func testMissingLeftOperandNamesWhatFits() {
        assertFails("== 1", at: 0, saying: "expected a key path, a value, '(' or NOT, found '=='")
        assertFails("a == 1 AND ) ", at: 11, saying: "expected a key path, a value, '(' or NOT, found ')'")
        assertFails("a == 1 AND", at: 10, saying: "found the end of the predicate")
        assertFails("ANY == 1", at: 4, saying: "expected a key path after ANY")
        assertFails("a == 1 AND * == 2", at: 11, saying: "found '*'")
    }

    func testMissingOperatorNamesTheOperators() {
        assertFails("stop_name 'x'", at: 10, saying:
            "expected an operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES, IN, BETWEEN) after stop_name")
        assertFails("stop_name", at: 9, saying: "after stop_name, found the end of the predicate")
        assertFails("(stop_lat) > 5", at: 9, saying: "expected an operator", "after stop_lat")
        assertFails("a & b", at: 2, saying: "expected an operator", "found '&'")
        assertFails("a.@count", at: 8, saying: "after a.@count")
    }

    func testMissingRightOperand() {
        assertFails("a ==", at: 4, saying: "expected a key path, a value or a list after ==, found the end of the predicate")
        assertFails("a == )", at: 5, saying: "after ==, found ')'")
        assertFails("a BEGINSWITH (b)", at: 13, saying: "after BEGINSWITH, found '('")
    }

    func testUnclosedParenthesisSaysWhereItOpened() {
        assertFails("a == 1 AND (b == 2 OR c == 3", at: 28, saying: "expected ')' to close the '(' at 11")
        assertFails("((a == 1) b", at: 10, saying: "expected ')' to close the '(' at 0, found 'b'")
    }

    func testTrailingTextIsAnError() {
        assertFails("a == 1 b == 2", at: 7, saying: "unexpected 'b' after the predicate", "AND or OR")
        assertFails("a == 1)", at: 6, saying: "unexpected ')' after the predicate")
        assertFails("TRUEPREDICATE == 1", at: 14, saying: "unexpected '==' after the predicate")
    }

    func testListMistakes() {
        assertFails("a IN {1, 2", at: 10, saying: "expected ',' or '}' in the list opened at 5")
        assertFails("a IN {1 2}", at: 8, saying: "expected ',' or '}'", "found '2'")
        assertFails("a IN {1,}", at: 8, saying: "found '}'")
    }

    func testKeyPathMistakes() {
        assertFails("a. == 1", at: 3, saying: "expected a name or a collection operator after 'a.'")
        assertFails("a.1 == 1", at: 2, saying: "after 'a.'")
        assertFails("a.@max.1 == 1", at: 7, saying: "expected an attribute name after @max.")
        assertFails("# == 1", at: 0, saying: "found '#'")
    }

    func testErrorDescriptionPutsTheCaretUnderTheMistake() {
        // Positions count Characters, so the accented letters before the mistake do not shift the caret.
        let format = "größe == 'ü' foo"
        do {
            let parsed = try PredicateParser.parse(format)
            XCTFail("parsed as \(parsed)")
        } catch {
            XCTAssertEqual(error.position, 13)
            let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(lines.count, 3)
            XCTAssertEqual(lines[0], "unexpected 'foo' after the predicate: join two predicates with AND or OR")
            XCTAssertEqual(lines[1], "  größe == 'ü' foo")
            XCTAssertEqual(lines[2], "  " + String(repeating: " ", count: 13) + "^")
            XCTAssertEqual(Array(lines[1])[lines[2].count - 1], "f", "the caret is under the f of foo")
        }
    }

    // MARK: - Robustness

    func testRandomInputEitherParsesOrThrowsAPredicateError() {
        let pieces = [
            "a", "b.c", "stop_times", ".", ".@count", ".@max", "@sum", "@x", "==", "=", "!=", "<>", "<", "<=", "=<", ">",
            ">=", "=>", "BEGINSWITH", "endswith", "CONTAINS", "LIKE", "MATCHES", "IN", "BETWEEN", "[c]", "[cd]", "[", "]",
            "(", ")", "{", "}", ",", "AND", "&&", "OR", "||", "NOT", "!", "ANY", "SOME", "ALL", "NONE", "TRUEPREDICATE",
            "FALSEPREDICATE", "nil", "YES", "NO", "SUBQUERY", "SUBQUERY(", "$x", "$x.y", "%@", "%K", "%d", "%", "#IN",
            "#", "42", "-5", "3.5", "1e3", "-", "'str'", "\"s\\\"q\"", "'", "\"", "\\", " ", "  ", "\n", "ü", "&", "|",
        ]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let argumentChoices: [PredicateValue] = [.text("a.b"), .integer(1), .text("not a key"), .null]
        var parsed = 0
        var failed = 0
        for round in 0..<4000 {
            var format = ""
            for _ in 0..<random(24) {
                if random(4) == 0 {
                    let scalar = Unicode.Scalar(UInt8(random(128))) 
                    format.append(Character(scalar))
                } else {
                    format += pieces[random(pieces.count)]
                    if random(2) == 0 { format += " " }
                }
            }
            if round % 10 == 0 {
                let bytes = (0..<random(40)).map { _ in UInt8(random(256)) }
                format = String(decoding: bytes, as: UTF8.self)
            }
            let arguments = (0..<random(4)).map { _ in argumentChoices[random(argumentChoices.count)] }
            do {
                _ = try PredicateParser.parse(format, arguments: arguments)
                parsed += 1
            } catch {
                failed += 1
                XCTAssert((0...format.count).contains(error.position), "position \(error.position) outside \(format.debugDescription)")
                XCTAssertFalse(error.message.isEmpty)
            }
        }
        XCTAssertEqual(parsed + failed, 4000)
        XCTAssertGreaterThan(parsed, 0, "some random inputs form predicates")
    }

    func testDeepNestingIsRefusedNotACrash() {
        let depth = 10_000
        let parentheses = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        assertFails(parentheses, at: 100, saying: "the predicate nests deeper than 100 levels")
        assertFails(String(repeating: "NOT ", count: depth) + "a == 1", at: 400, saying: "nests deeper than 100 levels")
        assertFails(String(repeating: "!", count: depth) + "a == 1", at: 100, saying: "nests deeper than 100 levels")
        assertFails("a IN " + String(repeating: "{", count: depth), at: 105, saying: "nests deeper than 100 levels")
        assertFails(String(repeating: "SUBQUERY(a, $x, ", count: depth), at: 1_600, saying: "nests deeper than 100 levels")
        // A hundred levels are fine.
        let hundred = String(repeating: "(", count: 100) + "a == 1" + String(repeating: ")", count: 100)
        assertParses(hundred, as: a1(at: 100))
    }

    func testLongFlatChainsParse() {
        let format = Array(repeating: "a == 1", count: 20_000).joined(separator: " AND ")
        guard case .and(let terms)? = parse(format) else { return XCTFail("expected an AND") }
        XCTAssertEqual(terms.count, 20_000)
        XCTAssertEqual(terms.last, a1(at: format.count - 6))
    }

    // MARK: - Helpers

    private func parse(_ format: String, _ arguments: [PredicateValue] = [],
                       file: StaticString = #filePath, line: UInt = #line) -> PredicateSyntax? {
        do {
            return try PredicateParser.parse(format, arguments: arguments)
        } catch {
            XCTFail("\(format.debugDescription) failed: \(error)", file: file, line: line)
            return nil
        }
    }

    private func assertParses(_ format: String, _ arguments: [PredicateValue] = [], as expected: PredicateSyntax,
                              file: StaticString = #filePath, line: UInt = #line) {
        guard let parsed = parse(format, arguments, file: file, line: line) else { return }
        XCTAssertEqual(parsed, expected, format.debugDescription, file: file, line: line)
    }

    private func assertFails(_ format: String, _ arguments: [PredicateValue] = [], at position: Int, saying words: String...,
                             file: StaticString = #filePath, line: UInt = #line) {
        do {
            let parsed = try PredicateParser.parse(format, arguments: arguments)
            XCTFail("\(format.debugDescription) parsed as \(parsed)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.position, position, "\(format.debugDescription): \(error.message)", file: file, line: line)
            XCTAssertEqual(error.format, format, file: file, line: line)
            for word in words {
                XCTAssertTrue(error.message.contains(word), "\(error.message.debugDescription) lacks \(word.debugDescription)",
                              file: file, line: line)
            }
        }
    }

    /// A key path written without spaces from `position`: each component's position follows from the dots.
    private func key(_ text: String, at position: Int) -> KeyPathSyntax {
        KeyPathSyntax(text: text, at: position)
    }

    private func path(_ text: String, at position: Int) -> ExpressionSyntax { .keyPath(key(text, at: position)) }

    private func value(_ value: PredicateValue, at position: Int) -> ExpressionSyntax { .value(value, position: position) }

    private func compare(_ left: ExpressionSyntax, _ op: PredicateOperator, _ right: ExpressionSyntax, at position: Int,
                         quantifier: Quantifier? = nil, options: StringOptions = []) -> PredicateSyntax {
        .comparison(ComparisonSyntax(quantifier: quantifier, left: left, op: op, options: options, right: right, position: position))
    }

    /// `a == 1` starting at `start`; likewise `b == 2`, `c == 3`, `d == 4`.
    private func a1(at start: Int) -> PredicateSyntax { simple("a", 1, at: start) }
    private func b2(at start: Int) -> PredicateSyntax { simple("b", 2, at: start) }
    private func c3(at start: Int) -> PredicateSyntax { simple("c", 3, at: start) }
    private func d4(at start: Int) -> PredicateSyntax { simple("d", 4, at: start) }

    private func simple(_ name: String, _ number: Int, at start: Int) -> PredicateSyntax {
        compare(path(name, at: start), .equal, value(.integer(number), at: start + 5), at: start + 2)
    }
}
