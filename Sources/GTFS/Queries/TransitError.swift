import FetchRequest
/// Why a query could not run, said so the user knows what to do next.
public enum TransitError: Error, CustomStringConvertible, Equatable {
    /// There is no file at the database path.
    case noDatabase(path: String)
    /// The file is not a database `transit import` wrote.
    case notATransitDatabase(path: String, reason: String)
    /// The database was written by a version of transit with another schema.
    case schemaMismatch(path: String, found: String, expected: Int)
    /// The database was written by an earlier transit that held one feed, imported from `source`.
    case olderSchema(path: String, found: String, source: String)
    /// `--stop` (or another id argument) named an id no feed has.
    case unknownStop(id: String)
    /// `--stop` named an id none of the feeds `--feed` chose has.
    case unknownStopInFeeds(id: String, feeds: [String])
    /// `FEED:ID` named a feed that `--feed` leaves out.
    case feedNotSelected(id: String, feed: String, selected: [String])
    /// A route id no (selected) feed has.
    case unknownRoute(id: String)
    /// A bare route id several feeds have: the candidates as `FEED:ID (name)`.
    case ambiguousRoute(id: String, candidates: [String])
    /// A trip id no (selected) feed has.
    case unknownTrip(id: String)
    /// A bare trip id several feeds have: the candidates as `FEED:ID (headsign)`.
    case ambiguousTrip(id: String, candidates: [String])
    /// A bare id that several feeds have: the candidates as `FEED:ID` with the stop's name.
    case ambiguousStop(id: String, candidates: [String])
    /// Words given for a stop match no stop id and the names of several stops that are not one
    /// place: the candidates, each with what tells it apart (`StopChoice`).
    case ambiguousStopName(text: String, candidates: [String])
    /// `--feed` or `feeds remove` named a feed the database does not hold.
    case unknownFeed(name: String, known: [String])
    /// A feed's agency time zone is not in this system's tz database.
    case unknownTimeZone(feed: String, zone: String)
    /// A PostgreSQL server holds no feeds yet (no `transit` schema): nothing was imported there.
    case noFeedsOnServer(location: String)
    /// Another process holds the database's write lock.
    case busy(path: String)
    /// A process killed while changing the database left its rollback journal, and this read-only
    /// open may not undo it (the file or its folder is read-only).
    case unfinishedChange(path: String)
    /// A feed was imported before journey planning existed: it has no planner timetable.
    case noPlannerTimetable(feed: String)
    /// A row of a feed's planner table (`planner_<feed>`) ends before what its header announces:
    /// the file was damaged or cut short; the feed, imported from `source`, is imported again.
    case damagedPlannerTimetable(feed: String, table: String, source: String)

    public var description: String {
        switch self {
        case .noDatabase(let path) where StoreLocation.isPostgres(path):
            return StoreNotSupported(location: StoreLocation.redacted(path)).description
        case .noFeedsOnServer(let location):
            return "\(location) holds no feeds yet: import one with `transit import FEED --db \(TransitError.shellQuoted(location))`"
        case .noDatabase(let path):
            return "no database at \(path): run `transit import FEED` first (or give --db PATH)"
        case .unfinishedChange(let path):
            return "\(path) holds a change a killed process left unfinished in \(path)-journal, which only a writable open can undo: run this command once where \(path) and its folder are writable"
        case let .notATransitDatabase(path, reason):
            return "\(path) is not a transit database (\(reason)): re-import it with `transit import FEED --db \(path)`"
        case let .schemaMismatch(path, found, expected):
            return "\(path) was written by another version of transit (schema \(found), this one reads \(expected)): re-import it with `transit import FEED --db \(path)`"
        case let .olderSchema(path, found, _) where SchemaUpgrade.canUpgrade(from: found):
            return "\(path) was written by an earlier transit (schema \(found)): `transit feeds upgrade --db \(TransitError.shellQuoted(path))` brings it up to date in place, without re-importing"
        case let .olderSchema(path, found, source):
            let feed = source.isEmpty ? "FEED" : TransitError.shellQuoted(source)
            return "\(path) was written by an earlier transit (schema \(found), one feed\(source.isEmpty ? "" : " from \(source)")); re-import that feed to upgrade it: transit import \(feed) --db \(TransitError.shellQuoted(path))"
        case .unknownStop(let id):
            return "no stop has stop_id '\(id)' or a name like it; find stops by name with `transit search TEXT`"
        case let .unknownStopInFeeds(id, feeds):
            return "no stop of feed \(feeds.joined(separator: ", ")) has stop_id '\(id)' (--feed leaves the others out); find stops by name with `transit search TEXT`"
        case let .feedNotSelected(id, feed, selected):
            return "\(id) is a stop of feed \(feed), which --feed leaves out (it keeps \(selected.joined(separator: ", ")))"
        case .unknownRoute(let id):
            return "no route has route_id '\(id)'; `transit routes` lists them"
        case let .ambiguousRoute(id, candidates):
            return "several feeds have route_id '\(id)'; give one as FEED:ID: " + candidates.joined(separator: ", ")
        case .unknownTrip(let id):
            return "no trip has trip_id '\(id)'; departures list the trip_id of each departure"
        case let .ambiguousTrip(id, candidates):
            return "several feeds have trip_id '\(id)'; give one as FEED:ID: " + candidates.joined(separator: ", ")
        case let .ambiguousStop(id, candidates):
            return "several feeds have stop_id '\(id)'; give one as FEED:ID: " + candidates.joined(separator: ", ")
        case let .ambiguousStopName(text, candidates):
            return "no stop has stop_id '\(text)', and it is the name of several stops; give one's stop_id: " + candidates.joined(separator: "; ")
        case let .unknownFeed(name, known):
            return "no feed is named '\(name)'; " + (known.isEmpty ? "the database holds no feeds" : "the feeds are " + known.joined(separator: ", "))
        case let .unknownTimeZone(feed, zone):
            return "feed \(feed) has the time zone '\(zone)', which this system does not know; is tzdata installed?"
        case .noPlannerTimetable(let feed):
            return "feed \(feed) was imported by an earlier transit, without the journey planner's timetable: `transit feeds upgrade` adds it in place (seconds), or import the feed again"
        case let .damagedPlannerTimetable(feed, table, source):
            let command = "transit import \(source.isEmpty ? "FEED" : TransitError.shellQuoted(source)) --feed \(TransitError.shellQuoted(feed))"
            return "feed \(feed)'s journey planner table \(table) is damaged (a stored row ends early): import the feed again to rewrite it (\(command))"
        case .busy(let path):
            return "\(path) is busy: another import is writing it, or a query has held it for over a minute; try again when it has finished"
        }
    }

    /// `text` as one shell word: unchanged when it is plain, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || "-_./:=@+,".utf8.contains($0)
        }
        return plain ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
