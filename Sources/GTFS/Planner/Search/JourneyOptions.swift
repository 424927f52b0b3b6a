/// The settings of a journey question (`--max-rides`, `--max-walk`, `--max-access-walk`,
/// `--walk-speed`, and the feeds whose realtime data applies).
public struct JourneyOptions: Sendable, Equatable {
    /// Rides at most: 8 (7 changes, as MOTIS allows) because a journey across a country is bus,
    /// bus, train, train, bus, bus or longer. Measured on the national feed's 60 seeded pairs
    /// (scripts/bench-national.sh): 5 rides answer 40, 6 answer 57, 8 answer all 60; on a city
    /// (Vilnius, 200 seeded questions) 8 gives the same answers as 5 in the same time (1.01×), as
    /// the search stops at the first round that improves nothing.
    public var maximumRides = 8
    /// Metres walked at most between two rides.
    public var maximumWalk = 500.0
    /// Metres walked at most between a point (`LAT,LON`) and a stop, at either end, and from
    /// point to point: longer than a walk between rides, as a rider walks farther to a first stop
    /// than to a change (other planners allow 15 minutes, about 1 km).
    public var maximumAccessWalk = 1000.0
    /// Metres per second.
    public var walkSpeed = 1.33
    /// The feeds (by key) whose stored realtime data applies: the caller judges its freshness.
    public var realtimeFeeds: Set<Int> = []
    public init() {}
}
