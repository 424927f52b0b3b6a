/// Where a journey starts or ends: a stop's boarding points (a station's are its platforms, reached
/// in 0 s), or a point the rider walks from or to.
public enum JourneyPlace: Sendable, Equatable {
    /// Boarding points by database key (a stop, or a station's platforms).
    case stops(keys: [Int])
    /// A position; the rider walks between it and boarding points within the walk radius.
    case point(latitude: Double, longitude: Double)
}

/// One leg of a journey.
public struct JourneyLeg: Sendable, Equatable {
    public enum Mode: String, Sendable { case ride, walk }

    public let mode: Mode
    /// The stop the leg leaves from (nil: a point).
    public let fromStop: Int?
    /// The stop the leg ends at (nil: a point).
    public let toStop: Int?
    /// When the leg starts and ends (seconds since 1970); a walk's are when it is taken in the
    /// journey shown (right after the ride before it, or just in time for the ride after it).
    public let departure: Int
    public let arrival: Int
    /// A ride's trip (key); nil for a walk.
    public let trip: Int?
    /// A walk's great-circle length in metres (rounded); 0 for a ride.
    public let metres: Int
    /// Whether a ride's times are realtime predictions.
    public let isRealtime: Bool
    /// A ride's calls from boarding to alighting (stop keys, in order); a walk's two ends.
    public var path: [Int] = []
    /// A ride's calls from boarding to alighting with their times (`plan --stops`); none for a walk.
    public var calls: [JourneyCall] = []

    /// A walk's seconds (a ride's duration).
    public var seconds: Int { arrival - departure }
}

/// A call a ride makes: the stop (key) and when the trip arrives and leaves there (seconds since 1970).
public struct JourneyCall: Sendable, Equatable {
    public let stop: Int
    public let arrival: Int
    public let departure: Int
}

/// A journey: its legs in order, when it leaves and arrives, and how many rides it takes.
public struct Journey: Sendable, Equatable {
    public let legs: [JourneyLeg]
    public let departure: Int
    public let arrival: Int
    public var rides: Int { legs.filter { $0.mode == .ride }.count }
}

/// A boarding point `reach` found, with its earliest arrival and the fewest rides reaching it then.
public struct ReachedStop: Sendable, Equatable {
    public let stop: Int
    public let arrival: Int
    public let rides: Int
}

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
