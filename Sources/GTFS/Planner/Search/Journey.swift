/// A journey: its legs in order, when it leaves and arrives, and how many rides it takes.
public struct Journey: Sendable, Equatable {
    public let legs: [JourneyLeg]
    public let departure: Int
    public let arrival: Int
    public var rides: Int { legs.filter { $0.mode == .ride }.count }
}
