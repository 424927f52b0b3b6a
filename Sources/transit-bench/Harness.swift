import FetchRequest
import GTFS
#if canImport(Glibc)
import Glibc
#endif

/// A deterministic random generator (SplitMix64), so every run draws the same queries.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Times `body` once per query, after one untimed warm-up pass over all of them; returns the
/// per-query durations in microseconds.
func timeEach<Input>(_ inputs: [Input], _ body: (Input) throws -> Int) rethrows -> (micros: [Double], rows: Int) {
    var rows = 0
    for input in inputs { rows &+= try body(input) }
    var micros: [Double] = []
    micros.reserveCapacity(inputs.count)
    rows = 0
    for input in inputs {
        let start = monotonicSeconds()
        rows &+= try body(input)
        micros.append((monotonicSeconds() - start) * 1e6)
    }
    return (micros, rows)
}

/// Times `first` and `second` in turn, one query each, the order swapped every turn (after one
/// untimed warm-up pass of each over all the queries): a ratio of their medians then compares the
/// two under the same conditions, however the machine's speed drifts during the run; timing each
/// over all the queries one after the other did not (the same departures ratio read 0.26 to 0.58
/// in five runs of a few seconds each). In a turn `second` answers the query half the list away
/// from `first`'s, so neither finds the pages of its own question in SQLite's cache, read there
/// by the other (each answers every query once, as when timed alone).
func timePairs<Input>(_ inputs: [Input], _ first: (Input) throws -> Int, _ second: (Input) throws -> Int) rethrows
    -> (first: (micros: [Double], rows: Int), second: (micros: [Double], rows: Int)) {
    for input in inputs { _ = try first(input) }
    for input in inputs { _ = try second(input) }
    var a: (micros: [Double], rows: Int) = ([], 0)
    var b: (micros: [Double], rows: Int) = ([], 0)
    a.micros.reserveCapacity(inputs.count)
    b.micros.reserveCapacity(inputs.count)
    func time(_ body: (Input) throws -> Int, _ input: Input, into result: inout (micros: [Double], rows: Int)) rethrows {
        let start = monotonicSeconds()
        result.rows &+= try body(input)
        result.micros.append((monotonicSeconds() - start) * 1e6)
    }
    let half = inputs.count / 2
    for (index, input) in inputs.enumerated() {
        let other = inputs[(index + half) % inputs.count]
        if index % 2 == 0 {
            try time(first, input, into: &a)
            try time(second, other, into: &b)
        } else {
            try time(second, other, into: &b)
            try time(first, input, into: &a)
        }
    }
    return (a, b)
}

/// The median of `values`.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The p-th percentile (0…100) of `values`.
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p / 100))]
}

/// `12.3` with one decimal.
func oneDecimal(_ value: Double) -> String {
    let scaled = (value * 10).rounded() / 10
    return String(scaled)
}

/// Prints one result line: name, median, p90, rows returned.
func report(_ name: String, _ result: (micros: [Double], rows: Int)) {
    let padded = name + String(repeating: " ", count: max(1, 44 - name.count))
    print(padded + "median " + oneDecimal(median(result.micros)) + " µs   p90 " + oneDecimal(percentile(result.micros, 90))
          + " µs   (\(result.micros.count) queries, \(result.rows) rows)")
}

/// The stops queries are drawn from: every stop, or with a FEED argument that feed's only (and
/// with `only`, the database is restricted to that feed as `--feed` does).
func sampledStops(_ transit: TransitDatabase) throws -> SQLPredicate {
    guard let name = sampledFeed else { return .all }
    if onlySampledFeed { try transit.restrict(toFeedsNamed: [name]) }
    guard let feed = transit.feeds.first(where: { $0.name == name }) else {
        throw TransitError.unknownFeed(name: name, known: transit.feeds.map(\.name))
    }
    return Column("id").between(feed.keys.lowerBound, and: feed.keys.upperBound)
}
