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
