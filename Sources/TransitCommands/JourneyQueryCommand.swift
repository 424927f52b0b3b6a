import ArgumentParser
import GTFS

/// `plan` and `reach` read directly: places as positional words (a `LAT,LON` may begin with a
/// minus), then the journey, batch and query options they share.
protocol JourneyQueryCommand: DirectlyReadableCommand {
    var places: [String] { get set }
    var journey: JourneyOptionGroup { get set }
    var batch: BatchOptions { get set }
    var options: QueryOptions { get set }
}

extension JourneyQueryCommand {
    static var takesNegativeNumbers: Bool { true }

    /// The places typed, without the end-of-options marker `--` (validated: no unknown option).
    var ends: [String] { (try? PositionalWords(places).words) ?? places }

    mutating func read(argument: String) {
        places.append(argument)
    }

    /// Takes an option of the groups `plan` and `reach` share.
    mutating func readShared(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        journey.read(option: name, from: &line) ?? batch.read(option: name, from: &line) ?? options.read(option: name, from: &line)
    }

    mutating func validateAll() throws {
        try journey.validateAll()
        try batch.validateAll()
        try options.validateAll()
        try validate()
    }
}
