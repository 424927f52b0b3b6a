import GTFS

/// Which feeds' stored realtime data a question may use: the data of a feed applies when its
/// messages are at most `--max-age` minutes older than the moment asked about; older data is
/// said once per feed and process on stderr (a batch says it once), and the timetable answers.
struct RealtimeFreshness {
    /// `--max-age`'s default, in minutes, for every command that takes it.
    static let defaultMaxAge = 30

    let maxAgeMinutes: Int

    /// The feeds whose stale data was said already (once per run, batch included).
    nonisolated(unsafe) private static var staleNoticeGiven = Set<Int>()

    /// Whether the stale notice for feed `key` is due: once per process on the command line; for
    /// every hosted question (each has its own notes, and the set is not shared between threads).
    private static func firstNotice(for key: Int) -> Bool {
        HostedDatabase.current != nil || staleNoticeGiven.insert(key).inserted
    }

    /// The delay ranges, by feed key, of the feeds among `feeds` whose stored realtime data is
    /// fresh at `instant`; `asked` names that moment in the stale notice ("the time asked").
    func freshFeeds(among feeds: [Feed], at instant: Int, in transit: TransitDatabase, asked: String = "the time asked") throws -> [Int: RealtimeWindow] {
        var fresh: [Int: RealtimeWindow] = [:]
        for (key, stored) in try transit.realtimeFeeds() where feeds.contains(where: { $0.key == key }) {
            guard let timestamp = stored.timestamp else { continue }
            if instant - timestamp <= maxAgeMinutes * 60 {
                fresh[key] = stored.window
            } else if let feed = transit.feed(ofKey: FeedKeys.base(of: key)), RealtimeFreshness.firstNotice(for: key) {
                writeToStandardError("realtime data of \(feed.name) is stale: its messages are from \(feed.timeZone.localTime(of: timestamp).iso8601), "
                    + "\(describeDuration(instant - timestamp)) before \(asked) (--max-age \(maxAgeMinutes) min); showing the timetable\n")
            }
        }
        return fresh
    }
}
