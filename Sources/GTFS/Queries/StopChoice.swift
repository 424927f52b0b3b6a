import FetchRequest

/// The stop or stops a rider's words name where an id is asked (`transit plan Westlake "Capitol
/// Hill"`, `departures --stop hauptbahnhof`): the stop with that id, or, when no stop has it, the
/// stops called so. A rider types names; ids are what a feed calls its stops.
public struct StopChoice: Sendable {
    /// One stop, or the stops of one name close together (both sides of a street, each with its
    /// own id): one place to a rider.
    public let stops: [Stop]
    /// The words as typed.
    public let text: String
    /// True when the words were read as a name (no stop has them as its id).
    public let isByName: Bool

    /// How far apart stops of one name may be and still be one place.
    public static let samePlaceMetres = 1000.0
    /// The most candidates an ambiguous name lists.
    static let listedCandidates = 8
}

extension TransitDatabase {
    /// The stop `argument` names: its id (`FEED:ID` or a bare id, as `stop(named:)`), else its
    /// name, read as `transit search` reads text. Of the stations and stops without a parent the
    /// search finds, the candidates are the stops whose whole name is the text (folded: case,
    /// accents), else those whose name starts with it, else all found; they are chosen when they
    /// are one place: one stop, or stops of one name within `samePlaceMetres` of the first.
    /// Anything else is `TransitError.ambiguousStopName`, listing what tells the candidates apart.
    public func stops(identifiedOrCalled argument: String) throws -> StopChoice {
        do {
            return StopChoice(stops: [try stop(named: argument)], text: argument, isByName: false)
        } catch let error as TransitError {
            switch error {
            case .unknownStop, .unknownStopInFeeds:
                guard let choice = try stops(called: argument) else { throw error }
                return choice
            default: throw error
            }
        }
    }

    /// The keys of the boarding points of every stop chosen (a station's platforms included).
    public func boardingKeys(for choice: StopChoice) throws -> [Int] {
        var keys: [Int] = []
        for stop in choice.stops { keys += try boardingKeys(for: stop) }
        return keys
    }

    /// The stops called `text`, nil when the search finds none.
    private func stops(called text: String) throws -> StopChoice? {
        guard var search = try? StopSearchQuery(text: text) else { return nil }
        search.limit = 50
        let found = try search.run(on: self)
        guard !found.isEmpty else { return nil }
        let folded = found.map { Self.trimmed(NameNormalizer.normalize($0.name)) }
        let whole = found.indices.filter { folded[$0] == search.normalizedText }.map { found[$0] }
        let starting = found.indices.filter { folded[$0].hasPrefix(search.normalizedText) }.map { found[$0] }
        let chosen = !whole.isEmpty ? whole : !starting.isEmpty ? starting : found
        guard Self.isOnePlace(chosen) else {
            let candidates = chosen.prefix(StopChoice.listedCandidates).map { describe($0) }
            throw TransitError.ambiguousStopName(text: text, candidates: candidates)
        }
        return StopChoice(stops: chosen, text: text, isByName: true)
    }

    /// `text` without spaces at either end.
    private static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }

    /// Whether `stops` share one name and lie within `samePlaceMetres` of the first.
    private static func isOnePlace(_ stops: [Stop]) -> Bool {
        guard let first = stops.first, stops.count > 1 else { return true }
        guard let latitude = first.latitude, let longitude = first.longitude else { return false }
        return stops.allSatisfy { stop in
            guard stop.name == first.name, let lat = stop.latitude, let lon = stop.longitude else { return false }
            return Geo.distance(latitude, longitude, lat, lon) <= StopChoice.samePlaceMetres
        }
    }

    /// A candidate as an ambiguous name lists it: its id (`FEED:ID` when the database holds
    /// several feeds), name, kind, platform and position: what tells twins apart.
    func describe(_ stop: Stop) -> String {
        let id = feeds.count > 1 ? "\(feedName(ofKey: stop.key)):\(stop.stopID)" : stop.stopID
        var text = "\(id) \(stop.name)"
        if stop.locationType == 1 { text += " (station)" }
        if let platform = stop.platformCode { text += " (platform \(platform))" }
        if let latitude = stop.latitude, let longitude = stop.longitude {
            text += " at \(formatDecimal(latitude, decimals: 5)),\(formatDecimal(longitude, decimals: 5))"
        }
        return text
    }
}
