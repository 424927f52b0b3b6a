import ArgumentParser
import Foundation
import GTFS

/// The `transit-serve` program: its command line parsed and the server run, a mistake reported,
/// the exit status set. The executable's `main.swift` only calls `main()`.
public enum ServerProgram {
    /// Runs the process's command line. A mistake is one line (`Error: …`) pointing at `--help`,
    /// exit 64, as `transit` words its own; help and the version go to stdout.
    public static func main() async {
        do {
            var command = try ServerCommand.parseAsRoot()
            // --help and --version come back as the parser's own commands, which say it by throwing.
            if let server = command as? ServerCommand {
                try await server.run()
            } else {
                try command.run()
            }
        } catch {
            let code = ServerCommand.exitCode(for: error)
            if code == .success {
                print(ServerCommand.fullMessage(for: error))
                Foundation.exit(0)
            }
            let message = ServerCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? ""
            if !message.isEmpty {
                writeToStandardError("Error: " + message + (code == .validationFailure ? " (see 'transit serve --help')" : "") + "\n")
            }
            Foundation.exit(code.rawValue)
        }
    }
}
