/// transit-bench KIND DATABASE [COUNT] [SEED] [FEED]: in-process query benchmarks for `make bench`.
/// With FEED, the random queries are drawn from that feed's stops (so a database holding other
/// feeds beside it is asked the same questions as one holding it alone); `only` after it restricts
/// the answers to that feed as `--feed` does.
#if canImport(Glibc)
import Glibc
#endif
let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: transit-bench nearby|departures|search DATABASE [COUNT] [SEED] [FEED [only]]\n       transit-bench plan DATABASE QUESTIONS.csv [WALK]")
    exit(64)
}
let count = arguments.count > 3 ? Int(arguments[3]) ?? 2000 : 2000
let seed = arguments.count > 4 ? UInt64(arguments[4]) ?? 42 : 42
let sampledFeed = arguments.count > 5 ? arguments[5] : nil
/// With a sixth argument `only`, queries are also restricted to FEED (`--feed FEED`).
let onlySampledFeed = arguments.count > 6 && arguments[6] == "only"
do {
    switch arguments[1] {
    case "nearby": try NearbyBenchmark.run(database: arguments[2], count: count, seed: seed)
    case "search": try SearchBenchmark.run(database: arguments[2], count: count, seed: seed)
    case "departures": try DeparturesBenchmark.run(database: arguments[2], count: count, seed: seed)
    // transit-bench plan DATABASE QUESTIONS.csv [WALK]
    case "plan": try PlanBenchmark.run(database: arguments[2], questions: arguments[3], walk: arguments.count > 4 ? Double(arguments[4]) ?? 500 : 500)
    default:
        print("unknown benchmark \(arguments[1])")
        exit(64)
    }
} catch {
    print("error: \(error)")
    exit(1)
}
