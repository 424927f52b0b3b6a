import FetchRequest

/// The realtime data a departures query applies for one feed: its delays' range, by which the
/// search for changed stop times is widened (a bus scheduled before the window but late enough
/// is in it).
public struct RealtimeWindow: Sendable, Equatable {
    public let latestDelay: Int
    public let earliestDelay: Int
    /// False when no NEW trip added departures: then none are searched for.
    public let hasAddedDepartures: Bool
    public init(latestDelay: Int, earliestDelay: Int, hasAddedDepartures: Bool = true) {
        self.latestDelay = latestDelay
        self.earliestDelay = earliestDelay
        self.hasAddedDepartures = hasAddedDepartures
    }
}
