import FetchRequest

/// What a realtime read stored, for the summary `transit realtime` prints.
public struct RealtimeSummary: Sendable {
    public var feed: String
    public var sources: [RealtimeDataset.Source]
    public var tripUpdates = 0
    public var vehicles = 0
    public var alerts = 0
    /// Trip updates applied to a trip run of the feed (rule 1).
    public var matched = 0
    /// NEW (or ADDED) trips: not in the timetable, stored with their own times.
    public var added = 0
    /// Stop time updates of matched trips that match no stop time of the trip (rule 2): ignored,
    /// counted.
    public var stopTimeUpdatesUnmatched = 0
    /// Trip updates that name no trip of the feed, or a trip that does not run on the days
    /// rule 1 allows: counted, a few reported, never an error.
    public var unmatched = 0
    /// Up to five trip ids of unmatched trip updates, with why.
    public var unmatchedExamples: [String] = []
    /// The oldest header timestamp of the sources (what freshness is judged by), POSIX seconds.
    public var timestamp: Int? { sources.compactMap(\.timestamp).min() }
}
