/// Why a query could not run, said so the user knows what to do next.
public enum TransitError: Error, CustomStringConvertible, Equatable {
    /// There is no file at the database path.
    case noDatabase(path: String)
    /// The file is not a database `transit import` wrote.
    case notATransitDatabase(path: String, reason: String)
    /// The database was written by a version of transit with another schema.
    case schemaMismatch(path: String, found: String, expected: Int)
    /// `--stop` named an id the feed does not have.
    case unknownStop(id: String)

    public var description: String {
        switch self {
        case .noDatabase(let path):
            return "no database at \(path): run `transit import FEED` first (or give --db PATH)"
        case let .notATransitDatabase(path, reason):
            return "\(path) is not a transit database (\(reason)): re-import it with `transit import FEED --db \(path)`"
        case let .schemaMismatch(path, found, expected):
            return "\(path) was written by another version of transit (schema \(found), this one reads \(expected)): re-import it with `transit import FEED --db \(path)`"
        case .unknownStop(let id):
            return "no stop has stop_id '\(id)'; find stops by name with `transit search TEXT`"
        }
    }
}
