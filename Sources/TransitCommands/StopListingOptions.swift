import ArgumentParser

/// `--limit` and `--platforms`, shared by the commands that list stops (`nearby`, `search`).
struct StopListingOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: "At most this many stops (0: no limit).")
    var limit: Int = 20

    @Flag(name: .long, help: "List every boarding point (platforms too) instead of stations and standalone stops.")
    var platforms = false

    func validate() throws {
        try validateLimit(limit)
    }
}

extension StopListingOptions: DirectlyReadableOptions {
    static func withDefaults() -> StopListingOptions {
        var options = StopListingOptions()
        options.limit = 20
        options.platforms = false
        return options
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        switch name {
        case "limit": line.set(&limit, negativeNumbers: true)
        case "platforms": line.setFlag(&platforms)
        default: nil
        }
    }
}
