import ArgumentParser
import FetchRequest
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// A question asked of `transit` by a host other than its command line (`transit-serve`): the
/// words of the equivalent command line, answered on a connection the host keeps open, with what
/// the command writes captured instead of printed.
///
/// Why the command line's words: the HTTP API answers exactly what the command line answers,
/// byte for byte, with the same validation and the same messages, because it is the same code.
public struct HostedQuestion: Sendable {
    /// The command and its arguments, as after `transit` on a command line
    /// (`["nearby", "54.68", "25.28", "--format", "json"]`).
    public let arguments: [String]

    /// The commands a host may ask: the read-only questions the server has an endpoint for (never
    /// import, realtime, `feeds remove` or `feeds upgrade`), by the name that starts the words.
    public static let commands: Set<String> = ["nearby", "departures", "search", "trip", "route", "routes", "feeds",
                                               "alerts", "vehicles", "list", "plan", "reach"]

    /// The command types those words may be parsed to: `feeds` only as its listing, whatever
    /// follows it (a subcommand word would otherwise select `remove` or `upgrade`).
    static let answeredTypes: [ParsableCommand.Type] = [NearbyCommand.self, DeparturesCommand.self, SearchCommand.self,
                                                        TripCommand.self, RouteCommand.self, RoutesCommand.self,
                                                        FeedsListCommand.self, AlertsCommand.self, VehiclesCommand.self,
                                                        ListCommand.self, PlanCommand.self, ReachCommand.self]

    public init(arguments: [String]) {
        self.arguments = arguments
    }

    /// Answers the question on `transit` (which the host has readied with
    /// `startNextQuestion()`); with `explain`, every statement run is collected.
    public func answer(on transit: TransitDatabase, explain: Bool) -> HostedAnswer {
        guard let name = arguments.first, HostedQuestion.commands.contains(name) else {
            return HostedAnswer(outcome: .badRequest, message: "not a question transit answers: \(arguments.first ?? "")")
        }
        var command: ParsableCommand
        do {
            command = try HostedQuestion.parse(arguments)
        } catch {
            return HostedAnswer(failure: error)
        }
        var statements: [ExecutedRequest] = []
        transit.database.observer = explain ? { statements.append($0) } : nil
        defer { transit.database.observer = nil }
        let (failure, output) = CapturedOutput.capturing { () -> Error? in
            HostedDatabase.with(transit) {
                do {
                    try command.run()
                    return nil
                } catch {
                    return error
                }
            }
        }
        var answer = failure.map { HostedAnswer(failure: $0) } ?? HostedAnswer(outcome: .answered, message: "")
        answer.body = output.standardOutput
        answer.notes = output.standardError
        answer.statements = statements
        return answer
    }

    /// The command `arguments` ask for: read directly when they take the usual form, else parsed
    /// by swift-argument-parser, which also words every mistake as the command line does.
    private static func parse(_ arguments: [String]) throws -> ParsableCommand {
        if let command = DirectCommandLine.command(from: arguments) { return command }
        guard let type = TransitCommand.configuration.subcommands.first(where: { $0.configuration.commandName == arguments[0] }) else {
            throw ValidationError("not a question transit answers: \(arguments[0])")
        }
        let command: ParsableCommand
        do {
            command = try type.parseAsRoot(Array(arguments.dropFirst()))
        } catch where TransitCommand.exitCode(for: error) == .validationFailure {
            if let option = UnknownOption.first(in: Array(arguments.dropFirst()), of: type) { throw UnknownOption.error(option, of: type) }
            throw error
        }
        guard answeredTypes.contains(where: { $0 == Swift.type(of: command) }) else {
            throw ValidationError("not a question transit answers: \(arguments.prefix(2).joined(separator: " "))")
        }
        return command
    }
}

/// What a hosted question gave: its outcome, the bytes the command line would print on stdout,
/// the notes it would print on stderr, and with `explain` the statements run.
public struct HostedAnswer: Sendable {
    /// How the question ended.
    public enum Outcome: Sendable, Equatable {
        /// Answered: `body` is the answer.
        case answered
        /// A mistake in the question (a bad or missing value): `message` says which, as the
        /// command line says it.
        case badRequest
        /// The question names a stop, trip, route or entity the database does not have.
        case notFound
        /// SQLite was interrupted: the host's time budget ran out.
        case interrupted
        /// The database was busy: a writer held what the question needed, or a hot standby
        /// cancelled the read for the replay of the primary's import. Asked again, it is answered.
        case busy
        /// Anything else (the database could not be read).
        case failed
    }

    public var outcome: Outcome
    /// The one-line message of a question that was not answered (without "Error: ").
    public var message: String
    /// What the command wrote to standard output.
    public var body: [UInt8] = []
    /// What the command wrote to standard error: notes such as stale realtime data.
    public var notes = ""
    /// The statements run, in order (with `explain`).
    public var statements: [ExecutedRequest] = []

    init(outcome: Outcome, message: String) {
        self.outcome = outcome
        self.message = message
    }

    /// The answer of a question the database could not be opened for: `error` says why.
    public init(unavailable error: Error) {
        self.init(outcome: Self.isBusy(error) ? .busy : .failed, message: String(describing: error))
    }

    /// Whether `error` says the database was busy (`Outcome.busy`).
    private static func isBusy(_ error: Error) -> Bool {
        switch error {
        case let database as DatabaseError: return database.isBusy
        case TransitError.busy: return true
        default: return false
        }
    }

    /// The answer of a question that failed with `error`, classified and worded as the command line words it.
    init(failure error: Error) {
        switch error {
        case let unknown as UnknownIDError:
            self.init(outcome: .notFound, message: unknown.description)
        case let database as DatabaseError where database.isInterrupt:
            self.init(outcome: .interrupted, message: database.message)
        case _ where HostedAnswer.isBusy(error):
            self.init(outcome: .busy, message: String(describing: error))
        case let mistake as PredicateUsageError:
            self.init(outcome: .badRequest, message: mistake.description)
        case is TransitError, is DatabaseError:
            self.init(outcome: .failed, message: String(describing: error))
        default:
            let code = TransitCommand.exitCode(for: error)
            let message = TransitCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? ""
            self.init(outcome: code.rawValue == 64 ? .badRequest : .failed, message: message)
        }
    }
}

/// The connection a hosted question runs on: while set for the calling thread,
/// `openTransitDatabase` hands it out instead of opening the `--db` file.
enum HostedDatabase {
    /// The calling thread's hosted connection, if it answers a hosted question.
    static var current: TransitDatabase? {
        slot.current
    }

    /// Runs `body` with `transit` as the calling thread's hosted connection.
    static func with<Result>(_ transit: TransitDatabase, _ body: () throws -> Result) rethrows -> Result {
        try slot.with(transit, body)
    }

    /// The thread-specific slot of `current`.
    private static let slot = ThreadLocalReference<TransitDatabase>()
}
