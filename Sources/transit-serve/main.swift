import PostgresStore
import TransitServer

// `transit-serve`: the HTTP server `transit serve` hands over to; everything is in TransitServer.
// It serves a file, or the feeds on a PostgreSQL server or hot standby (`--db postgres://…`).
PostgresStore.register()
await ServerProgram.main()
