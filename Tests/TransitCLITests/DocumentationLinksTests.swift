import XCTest
import Foundation
import TestSupport

/// The README stays a newcomer's page and the reference lives in `docs/`, one file per topic. Every
/// relative link of those pages must reach a file or folder that exists and, when it names an anchor,
/// a heading of that file as GitHub numbers them, so moving a section cannot leave a dead link behind.
final class DocumentationLinksTests: XCTestCase {
    /// The topic files of `docs/`, each linked from the README's "Where the rest lives".
    private static let topics = ["architecture.md", "commands.md", "database.md", "performance.md",
                                 "predicates.md", "realtime.md", "several-feeds.md"]

    /// The most lines the README may have: what a newcomer reads in five minutes.
    private static let readmeLineLimit = 250

    /// The README's path.
    private var readme: String { Paths.projectRoot + "/README.md" }

    /// README.md and every Markdown file of `docs/`, as paths, the README first.
    private func documentationFiles() throws -> [String] {
        let docs = Paths.projectRoot + "/docs"
        let names = try FileManager.default.contentsOfDirectory(atPath: docs).filter { $0.hasSuffix(".md") }.sorted()
        return [readme] + names.map { docs + "/" + $0 }
    }

    func testTheReadmeFitsInTwoHundredFiftyLines() throws {
        let text = try String(contentsOfFile: readme, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        if text.hasSuffix("\n") { lines -= 1 }
        XCTAssertLessThanOrEqual(lines, Self.readmeLineLimit,
                                 "README.md has \(lines) lines; move reference text into a file of docs/ and link it")
    }

    func testDocsHoldsAFileForEveryTopicAndTheReadmeLinksEach() throws {
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: Paths.projectRoot + "/docs"))
        let linked = Set(MarkdownLinks.links(in: try String(contentsOfFile: readme, encoding: .utf8)).map(\.path))
        for topic in Self.topics {
            XCTAssertTrue(present.contains(topic), "docs/\(topic) is missing; docs/ holds \(present.sorted())")
            XCTAssertTrue(linked.contains("docs/" + topic), "README.md does not link docs/\(topic)")
        }
    }

    func testEveryRelativeLinkInTheDocumentationReachesAFileAndHeading() throws {
        var links = 0
        for file in try documentationFiles() {
            links += MarkdownLinks.links(in: try String(contentsOfFile: file, encoding: .utf8)).count
            let problems = try MarkdownLinks.problems(in: file)
            XCTAssertTrue(problems.isEmpty, problems.map(\.description).joined(separator: "\n"))
        }
        // The pages link each other a great deal; finding almost no links means the reader is broken.
        XCTAssertGreaterThan(links, 20, "only \(links) relative links found in README.md and docs/")
    }

    func testTheCheckerReportsAMissingFileOrHeadingAndIgnoresCodeAndTheWeb() throws {
        let directory = TemporaryDirectory()
        try directory.write("README.md", "# Readme\n")
        try directory.write("docs/b.md", "# B heading\n")
        let page = try directory.write("docs/a.md", """
            # Title
            ## Same
            ## Same
            ## `transit feeds [--format F]`, `transit feeds remove NAME`
            ## Grüße, [linked](b.md) & 2× `trip_id`
            [ok](#title) [second](#same-1) [`code` text](#transit-feeds---format-f-transit-feeds-remove-name)
            [letters](#grüße-linked--2-trip_id) [other](b.md#b-heading) [up](../README.md) [folder](../docs)
            [web](https://example.org/x#y) [mail](mailto:someone@example.org) `[in code](nowhere.md)`
            [no file](missing.md) [no heading](b.md#nowhere)
            [no third](#same-2)
            ```sh
            [in a fence](nowhere.md)
            # Not a heading
            ```
            [fence heading](#not-a-heading) [not markdown](../docs#readme)
            """)
        let problems = try MarkdownLinks.problems(in: page)
        XCTAssertEqual(problems.map(\.link.destination),
                       ["missing.md", "b.md#nowhere", "#same-2", "#not-a-heading", "../docs#readme"],
                       problems.map(\.description).joined(separator: "\n"))
        XCTAssertEqual(problems.map(\.link.line), [9, 9, 10, 15, 15])
        XCTAssertTrue(problems[1].description.hasSuffix("docs/a.md:9: (b.md#nowhere): b.md has no heading whose anchor is 'nowhere'"),
                      problems[1].description)
    }
}

/// A relative link of a Markdown page: what its parentheses hold, and on which line.
struct MarkdownLink: Equatable {
    /// The line it is on, from 1.
    let line: Int
    /// The destination as written: `path`, `path#anchor` or `#anchor`.
    let destination: String

    /// The file or folder it names, percent-decoded, relative to the page; empty for the page itself.
    var path: String {
        let written = destination.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return written.removingPercentEncoding ?? written
    }

    /// The anchor after `#`, or nil when the link names none.
    var anchor: String? {
        guard let hash = destination.firstIndex(of: "#") else { return nil }
        let written = String(destination[destination.index(after: hash)...])
        return written.removingPercentEncoding ?? written
    }
}

/// A link that reaches no file or no heading, with the page it is on and why, for the failure message.
struct LinkProblem: CustomStringConvertible {
    /// The page holding the link.
    let page: String
    /// The link.
    let link: MarkdownLink
    /// What is missing, in words.
    let reason: String

    /// `PAGE:LINE: (destination): reason`, the form compilers use, so the line can be opened from the log.
    var description: String { "\(page):\(link.line): (\(link.destination)): \(reason)" }
}

/// Links and headings of Markdown read as GitHub renders them, as far as checking links needs:
/// fenced code blocks and code spans hold no links or headings, and a heading's anchor is GitHub's.
enum MarkdownLinks {
    /// The lines of `text` outside fenced code blocks, numbered from 1. A fence is three or more
    /// backticks or tildes, indented at most three spaces; it closes with at least as many of the same.
    static func proseLines(of text: String) -> [(number: Int, text: String)] {
        var prose: [(number: Int, text: String)] = []
        var fence: (character: Character, length: Int)?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            if indent <= 3, let first = body.first, first == "`" || first == "~" {
                let length = body.prefix { $0 == first }.count
                if length >= 3 {
                    if let open = fence {
                        if open.character == first, length >= open.length, body.dropFirst(length).allSatisfy(\.isWhitespace) { fence = nil }
                    } else {
                        fence = (first, length)
                    }
                    continue
                }
            }
            if fence == nil { prose.append((index + 1, String(line))) }
        }
        return prose
    }

    /// `line` with every code span's text (backticks included) turned into spaces, so that a link
    /// written inside code is not read as one while a link whose text is code still is.
    static func blankingCodeSpans(_ line: String) -> String {
        var characters = Array(line)
        var index = 0
        while index < characters.count {
            guard characters[index] == "`" else { index += 1; continue }
            var openEnd = index
            while openEnd < characters.count, characters[openEnd] == "`" { openEnd += 1 }
            let length = openEnd - index
            // The closing run has exactly as many backticks as the opening one.
            var search = openEnd
            var close: Int?
            while search < characters.count {
                guard characters[search] == "`" else { search += 1; continue }
                var runEnd = search
                while runEnd < characters.count, characters[runEnd] == "`" { runEnd += 1 }
                if runEnd - search == length { close = runEnd; break }
                search = runEnd
            }
            guard let end = close else { index = openEnd; continue }
            for blank in index..<end { characters[blank] = " " }
            index = end
        }
        return String(characters)
    }

    /// The relative links of `text`, in order: not those in code, nor `http:`, `https:` or `mailto:` ones.
    static func links(in text: String) -> [MarkdownLink] {
        // `[text](destination)` and `![text](destination)`, with an optional `"title"` after the destination.
        let linkPattern = try! NSRegularExpression(pattern: #"\[[^\]]*\]\(([^()\s]*)(?:\s+"[^"]*")?\)"#)
        return proseLines(of: text).flatMap { line -> [MarkdownLink] in
            let blanked = blankingCodeSpans(line.text)
            let range = NSRange(blanked.startIndex..., in: blanked)
            return linkPattern.matches(in: blanked, range: range).compactMap { match in
                guard let found = Range(match.range(at: 1), in: blanked) else { return nil }
                let destination = String(blanked[found])
                let lowercased = destination.lowercased()
                if ["http:", "https:", "mailto:"].contains(where: { lowercased.hasPrefix($0) }) { return nil }
                return MarkdownLink(line: line.number, destination: destination)
            }
        }
    }

    /// GitHub's anchor for a heading's text: links reduced to their text, lower-cased, every character
    /// other than a letter, digit, mark, space, `-` or `_` removed, and each space made a `-`
    /// (neither collapsed nor trimmed: "a -- b" is `a----b`).
    static func anchor(forHeading heading: String) -> String {
        let linkText = try! NSRegularExpression(pattern: #"!?\[([^\]]*)\]\([^)]*\)"#)
        let text = linkText.stringByReplacingMatches(in: heading, range: NSRange(heading.startIndex..., in: heading), withTemplate: "$1")
        var anchor = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            if scalar == " " { anchor.append("-") }
            else if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) { anchor.append(scalar) }
        }
        return String(anchor)
    }

    /// The anchors of the headings of `text` (`#` to `######`, outside fenced code). A heading whose
    /// anchor is taken gets GitHub's suffix: the second "Same" is `same-1`, the third `same-2`.
    static func anchors(in text: String) -> Set<String> {
        let heading = try! NSRegularExpression(pattern: #"^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$"#)
        var occurrences: [String: Int] = [:]
        var anchors: Set<String> = []
        for line in proseLines(of: text) {
            let range = NSRange(line.text.startIndex..., in: line.text)
            guard let match = heading.firstMatch(in: line.text, range: range) else { continue }
            let title = Range(match.range(at: 1), in: line.text).map { String(line.text[$0]) } ?? ""
            let base = anchor(forHeading: title.trimmingCharacters(in: .whitespaces))
            var unique = base
            while occurrences[unique] != nil {
                occurrences[base, default: 0] += 1
                unique = base + "-" + String(occurrences[base]!)
            }
            occurrences[unique] = 0
            anchors.insert(unique)
        }
        return anchors
    }

    /// The links of the Markdown page at `page` that name a file or folder that does not exist (relative
    /// to the page's folder), or an anchor that no heading of the target page has.
    static func problems(in page: String) throws -> [LinkProblem] {
        let folder = (page as NSString).deletingLastPathComponent
        var anchorsOfPage: [String: Set<String>] = [:]
        var problems: [LinkProblem] = []
        for link in links(in: try String(contentsOfFile: page, encoding: .utf8)) {
            let target = link.path.isEmpty ? page : folder + "/" + link.path
            var isFolder: ObjCBool = false
            guard !link.destination.isEmpty, FileManager.default.fileExists(atPath: target, isDirectory: &isFolder) else {
                problems.append(LinkProblem(page: page, link: link, reason: link.destination.isEmpty ? "the link is empty" : "no file or folder \(link.path)"))
                continue
            }
            guard let anchor = link.anchor else { continue }
            let name = link.path.isEmpty ? (page as NSString).lastPathComponent : link.path
            guard !isFolder.boolValue, target.hasSuffix(".md") else {
                problems.append(LinkProblem(page: page, link: link, reason: "\(name) is not a Markdown page, so it has no heading '\(anchor)'"))
                continue
            }
            if anchorsOfPage[target] == nil { anchorsOfPage[target] = anchors(in: try String(contentsOfFile: target, encoding: .utf8)) }
            if anchorsOfPage[target]?.contains(anchor) != true {
                problems.append(LinkProblem(page: page, link: link, reason: "\(name) has no heading whose anchor is '\(anchor)'"))
            }
        }
        return problems
    }
}
