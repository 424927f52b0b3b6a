import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// The command line of a query (`nearby`, `departures`, `search`, `trip`, `route`, `routes`,
/// `stats`, `alerts`, `vehicles`, `plan`, `reach`) read without swift-argument-parser, so the
/// whole process starts about as fast as the sqlite3 shell.
///
/// Why: swift-argument-parser learns a command's options by reflection (Mirror over every option
/// group, dynamic casts and default-value descriptions), and each first (type, protocol) pair the
/// Swift runtime meets is a linear scan of all 3,800 protocol conformances in the binary. That was
/// 10 M of the 12.6 M instructions of a whole `transit nearby` run, and the process took 2.2x
/// `sqlite3 DB "SELECT 1"`; read directly, 2.7 M instructions and 1.3x.
///
/// The reader only takes the plain, common forms (`--name VALUE`, `--name=VALUE`, flags,
/// positional arguments, `--` before the last of them) of the options each command declares,
/// and gives up (returns nil) on anything else: help, `--version`, completion requests, an
/// unknown or repeated option, a value that does not convert, a failed validation. The caller then parses the same line with
/// swift-argument-parser, which answers or reports the mistake exactly as before: this reader
/// never decides an error. Tests hold its answers equal to the parser's on every option.
struct DirectCommandLine {
    private var arguments: ArraySlice<String>
    /// The value given inline (`--name=VALUE`) to the option being read.
    private var inlineValue: Substring?
    /// Single-valued options and flags already given: a second one is left to the parser.
    private var seen: Set<Substring> = []
    /// The option being read.
    private var currentOption: Substring = ""

    private init(_ arguments: [String]) {
        self.arguments = arguments[...]
    }

    /// The commands read directly, by name.
    static let commands: [String: any DirectlyReadableCommand.Type] = [
        "nearby": NearbyCommand.self,
        "departures": DeparturesCommand.self,
        "search": SearchCommand.self,
        "trip": TripCommand.self,
        "route": RouteCommand.self,
        "routes": RoutesCommand.self,
        "stats": StatsCommand.self,
        "alerts": AlertsCommand.self,
        "vehicles": VehiclesCommand.self,
        "plan": PlanCommand.self,
        "reach": ReachCommand.self,
    ]

    /// The command `arguments` (the words after `transit`) ask for, read directly and validated;
    /// nil when the line is not one this reader takes (the parser must read it).
    static func command(from arguments: [String]) -> ParsableCommand? {
        guard let name = arguments.first, let type = commands[name] else { return nil }
        return read(type, Array(arguments.dropFirst()))
    }

    /// `arguments` read as options and arguments of `Command`, validated; nil when the parser
    /// must read them.
    static func read<Command: DirectlyReadableCommand>(_: Command.Type, _ arguments: [String]) -> Command? {
        var line = DirectCommandLine(arguments)
        var command = CommandDefaults.shared.value(of: Command.self)
        var positionalCount = 0
        while let argument = line.arguments.popFirst() {
            if argument == "--" {
                // The end of the options: every word after it is positional. An argument read
                // `.allUnrecognized` keeps the marker among its words, as the parser gives it.
                if Command.takesNegativeNumbers { command.read(argument: argument) }
                guard positionalCount + line.arguments.count <= Command.positionalArguments.upperBound else { return nil }
                positionalCount += line.arguments.count
                while let word = line.arguments.popFirst() { command.read(argument: word) }
            } else if argument.hasPrefix("--") {
                let option = argument.dropFirst(2)
                guard !option.isEmpty, !option.hasPrefix("-") else { return nil }
                if let equals = option.firstIndex(of: "=") {
                    line.currentOption = option[..<equals]
                    line.inlineValue = option[option.index(after: equals)...]
                } else {
                    line.currentOption = option
                    line.inlineValue = nil
                }
                guard command.read(option: line.currentOption, from: &line) == true else { return nil }
            } else {
                guard !argument.hasPrefix("-") || (Command.takesNegativeNumbers && DirectCommandLine.isNegativeNumber(argument)),
                      positionalCount < Command.positionalArguments.upperBound else { return nil }
                positionalCount += 1
                command.read(argument: argument)
            }
        }
        guard positionalCount >= Command.positionalArguments.lowerBound else { return nil }
        do {
            try command.validateAll()
        } catch {
            return nil
        }
        return command
    }

    /// Sets `property` to the option's value converted as swift-argument-parser converts it.
    /// `negativeNumbers`: the option is declared with `parsing: .unconditional`, so a following
    /// `-5` or `-33.9,151.2` is its value. False when there is no usable value or the option was
    /// already given.
    mutating func set<Value: ExpressibleByArgument>(_ property: inout Value, negativeNumbers: Bool = false) -> Bool {
        guard seen.insert(currentOption).inserted, let text = value(negativeNumbers: negativeNumbers),
              let value = Value(argument: text) else { return false }
        property = value
        return true
    }

    /// Sets an optional `property` to the option's value (see `set(_:negativeNumbers:)`).
    mutating func set<Value: ExpressibleByArgument>(_ property: inout Value?, negativeNumbers: Bool = false) -> Bool {
        guard seen.insert(currentOption).inserted, let text = value(negativeNumbers: negativeNumbers),
              let value = Value(argument: text) else { return false }
        property = value
        return true
    }

    /// Appends the option's value to a repeatable option's `values`.
    mutating func append<Value: ExpressibleByArgument>(to values: inout [Value]) -> Bool {
        guard let text = value(negativeNumbers: false), let value = Value(argument: text) else { return false }
        values.append(value)
        return true
    }

    /// Turns a flag on; false when it was given a value or given twice.
    mutating func setFlag(_ flag: inout Bool) -> Bool {
        guard inlineValue == nil, seen.insert(currentOption).inserted else { return false }
        flag = true
        return true
    }

    /// The current option's value: inline, or the next argument when that is not an option.
    private mutating func value(negativeNumbers: Bool) -> String? {
        if let inlineValue { return String(inlineValue) }
        guard let next = arguments.first else { return nil }
        if next.hasPrefix("-") && !(negativeNumbers && DirectCommandLine.isNegativeNumber(next)) { return nil }
        arguments.removeFirst()
        return next
    }

    /// Whether `argument` starts like a negative number (`-33.9`, `-33.9,151.2`), which the
    /// parser takes as a value or a positional argument, not as an option.
    static func isNegativeNumber(_ argument: String) -> Bool {
        let utf8 = argument.utf8
        guard utf8.count > 1, utf8.first == UInt8(ascii: "-") else { return false }
        let second = utf8[utf8.index(after: utf8.startIndex)]
        return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(second) || second == UInt8(ascii: ".")
    }
}

/// Options a command or option group fills in from a directly read command line.
protocol DirectlyReadableOptions {
    /// The value an empty command line gives: every option at its declared default.
    static func withDefaults() -> Self

    /// Takes option `name` (its long name, without dashes) through `line`: true when taken,
    /// false when its value is unusable, nil when these options have no such name.
    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool?

    /// Runs every `validate()` the parser would run on these options (nested groups' too).
    mutating func validateAll() throws
}

extension DirectlyReadableOptions where Self: ParsableArguments {
    /// An option group without nested groups validates itself only.
    mutating func validateAll() throws {
        try validate()
    }
}

/// A command whose usual command lines are read without swift-argument-parser.
protocol DirectlyReadableCommand: ParsableCommand, DirectlyReadableOptions {
    /// How many positional arguments the command takes.
    static var positionalArguments: ClosedRange<Int> { get }

    /// Whether a positional argument may be a negative number (`-33.9`): true for arguments
    /// declared with `parsing: .allUnrecognized`, which the parser gives every word it does not know.
    static var takesNegativeNumbers: Bool { get }

    /// Takes the next positional argument (the reader has checked there is room for it).
    mutating func read(argument: String)
}

extension DirectlyReadableCommand {
    static var positionalArguments: ClosedRange<Int> { 0...0 }

    static var takesNegativeNumbers: Bool { false }

    mutating func read(argument: String) {}
}

/// Each command's defaults (`withDefaults()`), made once per process and copied after: building a
/// command's option wrappers was 5 % of a server's nearby answer (transit-serve asks thousands a
/// second); a command line pays the lock once.
final class CommandDefaults: @unchecked Sendable {
    static let shared = CommandDefaults()
    private var values: [ObjectIdentifier: Any] = [:]
    private var mutex = pthread_mutex_t()

    private init() {
        pthread_mutex_init(&mutex, nil)
    }

    /// `Command.withDefaults()`, from the cache.
    func value<Command: DirectlyReadableCommand>(of _: Command.Type) -> Command {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        if let value = values[ObjectIdentifier(Command.self)] as? Command { return value }
        let value = Command.withDefaults()
        values[ObjectIdentifier(Command.self)] = value
        return value
    }
}
