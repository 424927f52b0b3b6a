import XCTest
import Foundation
import TestSupport

/// scripts/check-setup.sh, which `make demo`, `make test`, `make bench` and .ci/run run before
/// compiling: against fake `dpkg-query`, `apt-get`, `id`, `sudo` and `swift` put first on PATH, so
/// each case is the same whoever runs the tests (CI runs them as root) and nothing is installed.
final class SetupCheckTests: XCTestCase {
    private var directory: TemporaryDirectory!
    /// The folder of the fake commands, first on PATH.
    private var fakes: String { directory.file("bin") }
    /// Where the fake apt-get and sudo write the command lines they were given, one a line.
    private var commandLog: String { directory.file("commands.log") }
    private let script = Paths.projectRoot + "/scripts/check-setup.sh"

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: fakes, withIntermediateDirectories: true)
    }

    override func tearDown() { directory = nil }

    /// Writes an executable `name` into the fakes' folder.
    private func fake(_ name: String, _ body: String) throws {
        let path = try directory.write("bin/" + name, "#!/bin/sh\n" + body + "\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    }

    /// Runs the check with `arguments`. `missing`: the packages the fake dpkg-query says are not
    /// installed (all others are), beside a fake apt-get that only logs; nil: no dpkg-query and no
    /// apt-get at all (PATH holds only the fakes). `root`: what the fake `id -u` says; `sudo`:
    /// whether the fake `sudo -n` works (without a password) or fails as when it would ask for one.
    private func check(_ arguments: [String] = [], missing: [String]?, root: Bool = false, sudo: Bool = false,
                       swiftVersion: String = "Swift version 6.3.1 (swift-6.3.1-RELEASE)",
                       environment: [String: String] = [:]) throws -> CommandRun {
        try fake("swift", "echo '\(swiftVersion)'; echo 'Target: x86_64-unknown-linux-gnu'")
        try fake("id", "echo \(root ? 0 : 1000)")
        try fake("sudo", sudo
            ? "[ \"$1\" = -n ] && shift; [ \"$1\" = true ] && exit 0; printf '%s\\n' \"sudo $*\" >> '\(commandLog)'; exec \"$@\""
            : "exit 1")
        var env = ["SWIFT": "swift", "TRANSIT_SKIP_SETUP": ""]
        if let missing {
            // Answers as the real one does: `ii  NAME` for each installed package, a complaint on
            // stderr for the others; each call is logged too (with printf: dash's echo would turn
            // the `\n` of the format argument into a line break).
            try fake("dpkg-query", """
                printf '%s\\n' "dpkg-query $*" >> '\(commandLog)'
                for p in "$@"; do
                  case $p in -*) continue ;; esac
                  case ' \(missing.joined(separator: " ")) ' in
                    *" $p "*) echo "dpkg-query: no packages found matching $p" >&2 ;;
                    *) printf 'ii  %s\\n' "$p" ;;
                  esac
                done
                """)
            try fake("apt-get", "printf '%s\\n' \"DEBIAN_FRONTEND=$DEBIAN_FRONTEND apt-get $*\" >> '\(commandLog)'")
            env["PATH"] = fakes + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        } else {
            env["PATH"] = fakes
        }
        for (key, value) in environment { env[key] = value }
        return try CommandRun.run("/bin/bash", [script] + arguments, environment: env)
    }

    /// The command lines the fakes logged.
    private func loggedCommands() -> [String] {
        let text = (try? String(contentsOfFile: commandLog, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    func testAMissingPackageWithoutRootOrSudoStopsWithOneLineNamingItAndTheInstallCommand() throws {
        let run = try check(missing: ["libcurl4-openssl-dev", "libcurl4-gnutls-dev"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "transit setup: missing libcurl4-openssl-dev (not root, and sudo asks for a password); run: sudo apt-get install -y libcurl4-openssl-dev\n")
        XCTAssertFalse(loggedCommands().contains { $0.contains("apt-get") }, "nothing installed: \(loggedCommands())")
    }

    func testEverythingPresentPrintsNothingAndAsksDpkgQueryOnce() throws {
        let run = try check(["--for", "test"], missing: [])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "")
        let queries = loggedCommands().filter { $0.hasPrefix("dpkg-query") }
        XCTAssertEqual(queries.count, 1, "one dpkg-query for all the packages: \(queries)")
        XCTAssertTrue(queries.first?.hasSuffix(" libsqlite3-dev zlib1g-dev libcurl4-openssl-dev libcurl4-gnutls-dev libpq-dev pkg-config tzdata make sqlite3 python3 postgresql-15 postgresql man-db chromium") == true,
                      "the build's and the tests' packages, from scripts/system-packages.txt: \(queries)")
    }

    func testWithoutAptItNamesWhatItNeedsAndHowToSkipTheCheck() throws {
        let run = try check(missing: nil)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "transit setup: no dpkg-query/apt-get here to check the system packages; transit needs: SQLite 3 development files, zlib development files, libcurl development files, PostgreSQL's client library, pkg-config, time zone data (Debian names in scripts/system-packages.txt); install them, then skip this check with TRANSIT_SKIP_SETUP=1 (e.g. TRANSIT_SKIP_SETUP=1 make test)\n")
        let skipped = try check(missing: nil, environment: ["TRANSIT_SKIP_SETUP": "1"])
        XCTAssertEqual(skipped.status, 0, skipped.stderr)
        XCTAssertEqual(skipped.stderr, "")
    }

    func testAsRootAMissingPackageIsInstalledNonInteractivelySayingWhich() throws {
        let run = try check(missing: ["zlib1g-dev"], root: true)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "transit setup: installing zlib1g-dev (apt-get install -y zlib1g-dev)\n")
        XCTAssertEqual(loggedCommands().filter { $0.contains("apt-get") },
                       ["DEBIAN_FRONTEND=noninteractive apt-get update -qq", "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zlib1g-dev"])
    }

    func testWherePasswordlessSudoWorksAMissingPackageIsInstalledThroughIt() throws {
        let run = try check(missing: ["pkg-config", "tzdata"], sudo: true)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "transit setup: installing pkg-config tzdata (sudo apt-get install -y pkg-config tzdata)\n")
        XCTAssertEqual(loggedCommands().filter { $0.hasPrefix("sudo") },
                       ["sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq", "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pkg-config tzdata"])
    }

    func testBenchmarkOnlyPackagesAreRequiredOnlyForTheBenchmarks() throws {
        let forTests = try check(["--for", "test"], missing: ["hyperfine"])
        XCTAssertEqual(forTests.status, 0, forTests.stderr)
        XCTAssertEqual(forTests.stderr, "")
        let forBench = try check(["--for", "bench"], missing: ["hyperfine"])
        XCTAssertEqual(forBench.status, 1)
        XCTAssertEqual(forBench.stderr, "transit setup: missing hyperfine (not root, and sudo asks for a password); run: sudo apt-get install -y hyperfine\n")
    }

    func testTheBuildAloneDoesNotRequireTheTestsPackages() throws {
        let run = try check(missing: ["man-db", "python3"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let forTests = try check(["--for", "test"], missing: ["man-db", "python3"])
        XCTAssertEqual(forTests.stderr, "transit setup: missing python3 man-db (not root, and sudo asks for a password); run: sudo apt-get install -y python3 man-db\n")
    }

    func testAnotherLibcurlFlavourSatisfiesTheLibcurlLine() throws {
        let run = try check(missing: ["libcurl4-openssl-dev"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "", "libcurl4-gnutls-dev is installed, and conflicts with libcurl4-openssl-dev")
    }

    func testASwiftOlderThanPackageSwiftNeedsStopsNamingBothVersions() throws {
        let run = try check(missing: [], swiftVersion: "Swift version 5.10.1 (swift-5.10.1-RELEASE)")
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "transit setup: Swift 5.10.1 (\(fakes)/swift) is older than the 6.0 Package.swift needs; a newer toolchain: https://www.swift.org/install/\n")
    }

    func testNoSwiftOnPathStopsSayingWhereToGetIt() throws {
        let run = try check(missing: [], environment: ["SWIFT": "swift-that-is-not-installed"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "transit setup: no Swift toolchain (swift-that-is-not-installed is not on PATH); Package.swift needs Swift 6.0 or newer: https://www.swift.org/install/\n")
    }

    func testSkipSetupSkipsTheCheckEvenWithPackagesMissing() throws {
        let run = try check(missing: ["libsqlite3-dev"], environment: ["TRANSIT_SKIP_SETUP": "1"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(loggedCommands(), [], "not even dpkg-query is asked")
    }

    /// `make -n` lists the recipes in order without running them: the check comes before the first
    /// compiler run, with the packages of the goal asked for.
    func testMakeRunsTheCheckBeforeCompilingForDemoTestAndBench() throws {
        for (goal, check) in [("demo", "--for build"), ("test", "--for build --for test"), ("bench", "--for build --for bench")] {
            let run = try CommandRun.run("/usr/bin/env", ["make", "-n", "--no-print-directory", "-C", Paths.projectRoot, goal],
                                         environment: ["SWIFT": "swift"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let lines = run.stdout.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, "SWIFT='swift' scripts/check-setup.sh " + check, "make \(goal): \(lines)")
            XCTAssertTrue(lines.dropFirst().first?.contains("swift build") == true, "make \(goal) compiles next: \(lines)")
        }
    }
}
