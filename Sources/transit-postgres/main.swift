// transit-postgres: the program behind every `transit` command given a PostgreSQL server
// (`--db postgres://…` or `$TRANSIT_DB`). `transit` validates the command line and runs this
// program in its own place (exec), so only work on a server loads libpq and its 22 shared
// libraries; a question asked of a file starts as before.
//
//     transit-postgres import [SOURCE] --db URL …   the import (ServerChanges.swift)
//     transit-postgres COMMAND … --db URL            any other command, on the server's feeds
import PostgresStore
import TransitCommands

if CommandLine.arguments.dropFirst().first == "import" {
    PostgresStore.register()  // to find the feed an import replaces (`FeedCatalog.ownTables`)
    runServerImport(arguments: Array(CommandLine.arguments.dropFirst(2)))
} else {
    PostgresStore.register()
    ServerChange.change = { url, body in _ = try changeOnServer(url: url, requiringFeeds: true, body) }
    TransitProgram.main()
}
