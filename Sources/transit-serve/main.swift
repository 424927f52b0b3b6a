import TransitServer

// `transit-serve`: the HTTP server `transit serve` hands over to; everything is in TransitServer.
await ServerProgram.main()
