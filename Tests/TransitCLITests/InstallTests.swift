import XCTest
import Foundation
import TestSupport

/// `make install` and `make uninstall` into temporary places, from the build the tests run
/// (RELEASE=its folder, so nothing is built again): every file where it belongs, the manual
/// readable, the bash completion working against a real database, the installed binary usable
/// from elsewhere, and nothing left after uninstalling.
final class InstallTests: XCTestCase {
    /// The folder of the binaries under test.
    private var release: String { (Paths.transitBinary as NSString).deletingLastPathComponent }

    private func make(_ arguments: [String]) throws -> CommandRun {
        try CommandRun.run("/usr/bin/env", ["make", "--no-print-directory", "-C", Paths.projectRoot, "RELEASE=" + release] + arguments, timeout: 300)
    }

    /// The files under `folder`, relative to it, sorted.
    private func files(under folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var found: [String] = []
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue { found.append(name) }
        }
        return found.sorted()
    }

    /// The subcommands `transit --help` lists.
    private func subcommands(of binary: String) throws -> [String] {
        let help = try CommandRun.run(binary, ["--help"]).stdout
        let section = help.components(separatedBy: "SUBCOMMANDS:").last ?? ""
        return section.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            // A subcommand's line starts two spaces in; its wrapped abstract further.
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let first = words.first, first.allSatisfy({ $0.isLowercase }) else { return nil }
            return String(first)
        }.filter { $0 != "help" }
    }

    func testInstallPutsEveryFileInPlaceAndUninstallRemovesThem() throws {
        let directory = TemporaryDirectory()
        let prefix = directory.file("prefix")
        let install = try make(["install", "PREFIX=" + prefix])
        XCTAssertEqual(install.status, 0, install.stderr)
        let subcommands = try subcommands(of: Paths.transitBinary)
        XCTAssertTrue(subcommands.contains("departures") && subcommands.contains("realtime"), "\(subcommands)")
        let pages = files(under: Paths.projectRoot + "/man")
        XCTAssertTrue(pages.contains("transit.1"), "\(pages)")
        for subcommand in subcommands { XCTAssertTrue(pages.contains("transit-\(subcommand).1"), "a page for \(subcommand): \(pages)") }
        let expected = ["bin/transit", "bin/transit-import", "bin/transit-postgres", "bin/transit-realtime", "bin/transit-serve", "share/bash-completion/completions/transit",
                        "share/fish/vendor_completions.d/transit.fish", "share/zsh/site-functions/_transit"]
            + pages.map { "share/man/man1/" + $0 }
        XCTAssertEqual(files(under: prefix), expected.sorted())

        // The manual renders, with the examples of the commands' help.
        let manual = try CommandRun.run("/usr/bin/env", ["man", "--nh", "--nj", "-l", prefix + "/share/man/man1/transit-departures.1"], environment: ["MANWIDTH": "100", "MANPAGER": "cat", "PAGER": "cat"])
        XCTAssertEqual(manual.status, 0, manual.stderr)
        let text = manual.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(text.hasPrefix("TRANSIT-DEPARTURES(1)"), text)
        XCTAssertTrue(text.contains("Examples: transit departures --stop HBF"), "the examples are in the page: \(text)")

        // The installed program works from another folder, with its helper beside it.
        let elsewhere = directory.file("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let imported = try CommandRun.run(prefix + "/bin/transit", ["import", Paths.demoFeed, "--db", "here.sqlite", "--quiet"], in: elsewhere)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let nearby = try CommandRun.run(prefix + "/bin/transit", ["nearby", "52.5249", "13.3692", "--db", "here.sqlite", "--format", "csv"], in: elsewhere)
        XCTAssertEqual(nearby.stdout.split(separator: "\r\n").dropFirst().first?.hasPrefix("lindenau,HBF,"), true, nearby.stdout)

        // The bash completion loads and completes subcommands, --format values and feed names
        // (which it asks the installed transit for, from the database on the command line).
        let script = """
            source "$1"
            complete -p transit
            c() { COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<< "$1"; [[ "$1" == *" " ]] && COMP_WORDS+=("")
                  COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
                  _transit transit "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"; echo "${COMPREPLY[*]}"; }
            c "transit dep"
            c "transit departures --format "
            c "transit departures --db here.sqlite --feed "
            """
        let completion = try CommandRun.run("/bin/bash", ["-c", script, "bash", prefix + "/share/bash-completion/completions/transit"], in: elsewhere,
                                            environment: ["PATH": prefix + "/bin:/usr/bin:/bin"])
        XCTAssertEqual(completion.status, 0, completion.stderr)
        XCTAssertEqual(completion.stdout.split(separator: "\n").map(String.init),
                       ["complete -o filenames -F _transit transit", "departures", "table json csv geojson", "lindenau"])

        let uninstall = try make(["uninstall", "PREFIX=" + prefix])
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertEqual(files(under: prefix), [], "uninstall removes every file install put there")
    }

    /// The committed pages are regenerated by `make man`; this catches an option added to a
    /// command without it: each page lists exactly the options its command's help does.
    func testTheManualPagesListEachCommandsOptions() throws {
        let pages = files(under: Paths.projectRoot + "/man")
        XCTAssertFalse(pages.isEmpty)
        for page in pages where page != "transit-help.1" {
            let words = page.dropLast(2).split(separator: "-").dropFirst().map(String.init)
            let help = try CommandRun.run(Paths.transitBinary, words + ["--help"]).stdout
            // The names column of each option line, before its description.
            let options = Set(help.split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap { line in
                (line.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ").first ?? "").split(separator: " ")
                    .filter { $0.hasPrefix("--") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
            })
            let source = try String(contentsOfFile: Paths.projectRoot + "/man/" + page, encoding: .utf8)
            let documented = Set(source.split(separator: "\n").filter { $0.hasPrefix(".It Fl -") || $0.hasPrefix(".Op Fl -") }.compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("-") }.map { "-" + $0 }
            })
            XCTAssertEqual(documented, options, "\(page) is out of date: run make man")
        }
    }

    func testDestdirStagesUnderItsFolder() throws {
        let directory = TemporaryDirectory()
        let stage = directory.file("stage")
        XCTAssertEqual(try make(["install", "DESTDIR=" + stage, "PREFIX=/usr"]).status, 0)
        let staged = files(under: stage)
        XCTAssertTrue(staged.contains("usr/bin/transit") && staged.contains("usr/share/man/man1/transit.1")
                      && staged.contains("usr/share/zsh/site-functions/_transit"), "\(staged)")
        XCTAssertTrue(staged.allSatisfy { $0.hasPrefix("usr/") }, "nothing outside the prefix: \(staged)")
        XCTAssertEqual(try make(["uninstall", "DESTDIR=" + stage, "PREFIX=/usr"]).status, 0)
        XCTAssertEqual(files(under: stage), [])
    }
}
