import ArgumentParser
import GTFS

/// A journey's end as typed: a stop id (`FEED:ID` where ambiguous), a station, or `LAT,LON`.
struct JourneyEnd {
    let place: JourneyPlace
    /// The feed of the stop, when it is one (its zone reads the times typed).
    let feedKey: Int?
    let text: String
    /// What to say when the text was read as a stop's name (no stop has it as its id).
    let nameNote: AnswerNote?

    /// Checks the positional words: exactly one per name (an unknown `--option` among them is
    /// named as such, since negative degrees must pass as words; `--` ends the options).
    static func validate(_ typed: [String], names: [String]) throws {
        let words = try PositionalWords(typed).words
        guard words.count == names.count else {
            throw ValidationError("expected \(names.joined(separator: " and ")) (stop ids, stations or LAT,LON), got \(words.isEmpty ? "nothing" : "'" + words.joined(separator: " ") + "'")")
        }
    }

    /// Reads `text` (called `name` in messages): a coordinate when it is two numbers, else a stop.
    init(_ text: String, name: String, in transit: TransitDatabase) throws {
        self.text = text
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, parts.allSatisfy({ Double(String($0).trimmingSpaces) != nil }) {
            let point = try Coordinate(text, option: name)
            place = .point(latitude: point.latitude, longitude: point.longitude)
            feedKey = nil
            nameNote = nil
            return
        }
        do {
            let choice = try transit.stops(identifiedOrCalled: text)
            place = .stops(keys: try transit.boardingKeys(for: choice))
            feedKey = choice.stops[0].feedKey
            nameNote = choice.isByName ? AnswerNote(readAsName: choice, about: name) : nil
        } catch let error as TransitError {
            throw usageError(error, about: name)
        }
    }
}
