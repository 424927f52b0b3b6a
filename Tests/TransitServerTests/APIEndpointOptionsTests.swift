import XCTest
@testable import TransitServer

/// The API's parameters are its commands' options by design (`max_rides` is `--max-rides`): these
/// tests fail when a command gains, loses or renames an option and its endpoint does not follow,
/// or an endpoint names an option its command does not have.
final class APIEndpointOptionsTests: XCTestCase {
    /// Options of every query command the API leaves out on purpose, and why.
    private static let notOffered: [String: String] = [
        "--db": "the server's database is the one it was started on",
        "--format": "the format parameter",
        "--explain": "the explain parameter (it wraps the answer rather than writing on stderr)",
        "--color": "colours tables only; the API writes JSON, GeoJSON and CSV",
        "--input": "many questions read from a file; a request is one question",
        "--help": "the parser's own", "--version": "the parser's own",
    ]

    /// Options of one command the API leaves out on purpose, and why.
    private static let notOfferedByCommand: [String: [String: String]] = [
        "list": [
            "--var": "named values ($NAME) for the predicate; the API binds its values by position (arg)",
            "--where": "FIELD=VALUE filters; the API's where is the whole predicate (--predicate)",
        ],
    ]

    /// Parameters not named as their option (the option's name, less `--`, dashes as underscores).
    private static let renamed: [String: String] = [
        // SQL's word for it, as `/api/list/stops?where=…` reads.
        "list where": "--predicate",
        // A yes/no parameter that is on by default: realtime=0 asks `--no-realtime`.
        "realtime": "--no-realtime",
    ]

    private func dump(of endpoint: APIEndpoint) throws -> CommandOptionsDump {
        try XCTUnwrap(try CommandOptionsDump(command: endpoint.command), "transit has no command \(endpoint.command) for /api/\(endpoint.name)")
    }

    func testEveryParameterIsAnOptionOfItsCommandOfTheSameKind() throws {
        for endpoint in APIEndpoint.all.values.sorted(by: { $0.name < $1.name }) {
            let options = try dump(of: endpoint).options
            for parameter in endpoint.parameters {
                guard let flag = parameter.flag else { continue }
                let place = "/api/\(endpoint.name)?\(parameter.name)"
                guard let option = options[flag] else {
                    XCTFail("\(place) asks \(flag), which `transit \(endpoint.command)` does not have (it has \(options.keys.sorted()))")
                    continue
                }
                switch parameter.kind {
                case .option: XCTAssertTrue(option.takesValue, "\(place): \(flag) takes no value")
                case .flag, .negatedFlag: XCTAssertFalse(option.takesValue, "\(place): \(flag) takes a value")
                case .argument: break
                }
                XCTAssertEqual(parameter.repeatable, option.repeatable, "\(place): repeatable as \(flag) is")
            }
        }
    }

    func testEveryOptionOfACommandIsAParameterOfItsEndpointOrLeftOutOnPurpose() throws {
        for endpoint in APIEndpoint.all.values.sorted(by: { $0.name < $1.name }) {
            let asked = Set(endpoint.parameters.compactMap(\.flag))
            let leftOut = Self.notOfferedByCommand[endpoint.command] ?? [:]
            let missing = try dump(of: endpoint).options.keys.filter { flag in
                !asked.contains(flag) && Self.notOffered[flag] == nil && leftOut[flag] == nil
            }
            XCTAssertEqual(missing.sorted(), [], "`transit \(endpoint.command)` options that /api/\(endpoint.name) neither takes nor leaves out on purpose")
        }
    }

    func testEachParameterIsNamedAsItsOptionSaveTheDocumentedRenames() throws {
        for endpoint in APIEndpoint.all.values {
            for parameter in endpoint.parameters {
                guard let flag = parameter.flag else { continue }
                let expected = Self.renamed["\(endpoint.name) \(parameter.name)"] ?? Self.renamed[parameter.name]
                    ?? "--" + parameter.name.replacingOccurrences(of: "_", with: "-")
                XCTAssertEqual(flag, expected, "/api/\(endpoint.name)?\(parameter.name)")
            }
        }
    }

    func testEachEndpointGivesItsCommandItsPositionalArguments() throws {
        for endpoint in APIEndpoint.all.values.sorted(by: { $0.name < $1.name }) {
            let positional = ([endpoint.pathParameter].compactMap { $0 } + endpoint.parameters).filter { $0.flag == nil }
            XCTAssertEqual(positional.count, try dump(of: endpoint).positionalWords,
                           "/api/\(endpoint.name)'s positional parameters \(positional.map(\.name)) against `transit \(endpoint.command)`'s")
        }
    }
}
