// libFuzzer target for predicate strings (make fuzz-predicate).
//
// The first byte picks an entity of the transit model, the rest is the format string (UTF-8,
// invalid bytes replaced). The string is parsed and compiled with a few arguments and variables,
// also used as sort keys; each must either be refused with a PredicateFormatError whose position
// lies within the text, or give SQL that SQLite prepares and runs on a database of transit's
// layout. Any other error, a crash or a hang is a bug.
@testable import GTFS
import FetchRequest

/// An empty database with the layout of one feed (key 1), opened once.
nonisolated(unsafe) private let database: Database = {
    let database = try! Database(path: ":memory:", mode: .readWrite)
    for table in Schema.sharedTables + Schema.feedTables(1) { try! database.execute(table.sql) }
    for index in Schema.sharedIndexes + Schema.feedIndexes(1) { try! database.execute(index.sql) }
    try! database.register(folding: TransitModel.folding)
    return database
}()

private let model = TransitModel.model(forFeedKey: 1)
private let arguments: [PredicateValue] = [.text("1"), .text("stop_id"), .text("08:00:00"), .text("2026-03-02"), .text("x'y"), .text("trip.route")]
private let variables: [String: PredicateValue] = ["ID": .text("HBF"), "N": .text("3"), "T": .text("24:05:00")]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicate(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let entity = TransitModel.entityNames[Int(data[0]) % TransitModel.entityNames.count]
    let format = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    var fetch = ModelFetch(entity: entity, in: model)!
    do {
        try fetch.filter(format: format, arguments: Array(arguments.prefix(format.count % (arguments.count + 1))), variables: variables)
        try? fetch.sort(by: format)
        fetch.limit = 5
        let query = try fetch.query(selecting: model[entity]!.attributes.map(\.name)).query
        try database.forEachRow(SQLGenerator.prepare(query)) { _ in }
    } catch let error as PredicateFormatError {
        precondition(error.position >= 0 && error.position <= error.format.count, "position \(error.position) outside \(error.format.debugDescription)")
        _ = error.description
    } catch {
        preconditionFailure("\(entity) \(format.debugDescription): not a predicate mistake: \(error)")
    }
    return 0
}

// SwiftPM links an executable with `main` aliased to `<module>_main`; this one hands control to
// libFuzzer's driver, which then calls `LLVMFuzzerTestOneInput` above.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

@_cdecl("fuzz_predicate_main")
public func fuzzPredicateMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzPredicate(data, size) }
}
