import ArgumentParser
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// Shell completions that need more than the command's own declarations.
enum Completion {
    /// The names of the feeds in the database the command line names (`--db`, else
    /// `$TRANSIT_DB`, else transit.sqlite), for `--feed`: the shell runs transit to ask, which
    /// opens the database and reads its small `feeds` table. Nothing when it cannot be opened.
    static let feedNames = CompletionKind.custom { words, _, prefix in
        var path = "transit.sqlite"
        if let environment = getenv("TRANSIT_DB"), environment.pointee != 0 { path = String(cString: environment) }
        if let index = words.lastIndex(of: "--db"), index + 1 < words.count { path = words[index + 1] }
        guard let transit = try? TransitDatabase(path: path) else { return [] }
        return transit.feeds.map(\.name).filter { $0.hasPrefix(prefix) }
    }
}
