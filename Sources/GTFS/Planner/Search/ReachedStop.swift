/// A boarding point `reach` found, with its earliest arrival and the fewest rides reaching it then.
public struct ReachedStop: Sendable, Equatable {
    public let stop: Int
    public let arrival: Int
    public let rides: Int
}
