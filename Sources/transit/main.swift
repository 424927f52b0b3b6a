import TransitCommands

// `transit`: everything is in TransitCommands, which transit-serve shares (the same questions,
// options, messages and JSON over HTTP).
TransitProgram.main()
