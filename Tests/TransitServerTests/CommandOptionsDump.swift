import ArgumentParser
import Foundation
@testable import TransitCommands

/// A `transit` command's options and positional arguments, as swift-argument-parser describes
/// them (`_dumpHelp()`, the JSON of `--experimental-dump-help`): what the API's parameters are
/// checked against.
struct CommandOptionsDump {
    /// One option or flag: its long name (`--max-rides`), whether it takes a value, whether it
    /// may be repeated.
    struct Option: Equatable {
        let flag: String
        let takesValue: Bool
        let repeatable: Bool
    }

    /// The options by long name.
    let options: [String: Option]
    /// How many positional words the command takes, as its arguments' value names say them
    /// (`nearby`'s one argument is `lat lon`: two words).
    let positionalWords: Int

    /// The dump of `transit COMMAND` (its default subcommand when it has one: `feeds` is
    /// `feeds list`); nil when `transit` has no such command.
    init?(command: String) throws {
        guard let type = TransitCommand.configuration.subcommands.first(where: { $0.configuration.commandName == command }) else { return nil }
        var info = try JSONDecoder().decode(ToolInfo.self, from: Data(type._dumpHelp().utf8)).command
        if let name = info.defaultSubcommand, let subcommand = info.subcommands?.first(where: { $0.commandName == name }) {
            info = subcommand
        }
        var options: [String: Option] = [:]
        var positionalWords = 0
        for argument in info.arguments ?? [] {
            if argument.kind == "positional" {
                positionalWords += argument.valueName.map { $0.split(separator: " ").count } ?? 1
                continue
            }
            for name in argument.names ?? [] where name.kind == "long" {
                options["--" + name.name] = Option(flag: "--" + name.name, takesValue: argument.kind == "option", repeatable: argument.isRepeating)
            }
        }
        self.options = options
        self.positionalWords = positionalWords
    }

    // The parts of ArgumentParserToolInfo's `ToolInfoV0` read here.
    private struct ToolInfo: Decodable {
        let command: CommandInfo
    }

    private struct CommandInfo: Decodable {
        let commandName: String
        let arguments: [ArgumentInfo]?
        let subcommands: [CommandInfo]?
        let defaultSubcommand: String?
    }

    private struct ArgumentInfo: Decodable {
        let kind: String
        let names: [NameInfo]?
        let valueName: String?
        let isRepeating: Bool
    }

    private struct NameInfo: Decodable {
        let kind: String
        let name: String
    }
}
