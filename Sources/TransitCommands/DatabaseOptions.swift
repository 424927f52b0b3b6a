import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// `--db PATH`, shared by every command: the database file, by default `transit.sqlite` in the
/// current folder, or the `TRANSIT_DB` environment variable when set.
package struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The database file (default: $TRANSIT_DB, else transit.sqlite), or a postgres:// URL for `import` and the query commands.", valueName: "path"), completion: .file())
    var db: String?

    package init() {}

    /// The path to use.
    package var path: String {
        if let db { return db }
        if let environment = getenv("TRANSIT_DB"), environment.pointee != 0 { return String(cString: environment) }
        return "transit.sqlite"
    }

    package func validate() throws {
        if let db, db.isEmpty { throw ValidationError("--db needs a file path") }
        if let db, db.utf8.contains(0) { throw ValidationError("--db contains a NUL byte") }
    }
}

extension DatabaseOptions: DirectlyReadableOptions {
    static func withDefaults() -> DatabaseOptions {
        var options = DatabaseOptions()
        options.db = nil
        return options
    }

    mutating func read(option name: Substring, from line: inout DirectCommandLine) -> Bool? {
        name == "db" ? line.set(&db) : nil
    }
}
