/// The settings of a journey question (`--max-rides`, `--max-walk`, `--max-access-walk`,
/// `--walk-speed`, and the feeds whose realtime data applies).
public struct JourneyOptions: Sendable, Equatable {
    public var maximumRides = 5
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
