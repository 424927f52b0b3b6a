// libFuzzer target for the CSV reader and the GTFS value parsers (make fuzz).
//
// Each input is parsed twice: whole, and in chunks of a size the input's first byte chooses. The
// two parses must agree record for record (or fail the same way), since chunk boundaries fall
// anywhere when a zip entry inflates. Every field then goes through the value parsers, the name
// normalizer and the search query, which must never crash whatever the bytes.
@testable import GTFS
import FetchRequest

private struct Parsed: Equatable {
    var records: [[String?]] = []
    var lines: [Int] = []
    var failure: String?
}

private func parse(_ bytes: UnsafeRawBufferPointer, chunk: Int, inspect: Bool) -> Parsed {
    let reader = CSVReader(fileName: "fuzz.txt")
    var parsed = Parsed()
    var table: FeedTable?
    let handler: (CSVRecord) throws -> Void = { record in
        parsed.records.append((0..<record.count).map { record.string($0) })
        parsed.lines.append(record.line)
        guard inspect else { return }
        if table == nil { table = FeedTable(file: "fuzz.txt", header: reader.header) }
        let fields = FieldReader(table: table!, record: record)
        for index in 0..<min(record.count, table!.header.count) {
            _ = try? fields.text(index)
            _ = try? fields.int(index)
            _ = try? fields.double(index)
            _ = try? fields.time(index)
            _ = try? fields.optionalDate(index)
            _ = try? fields.code(index, allowed: 0...4)
            try? fields.validateText(index)
            if let text = record.string(index) {
                let normalized = NameNormalizer.normalize(text)
                precondition(NameNormalizer.normalize(normalized) == normalized, "normalizing twice changed \(text.debugDescription)")
                _ = NameNormalizer.words(ofNormalized: normalized)
                if let query = try? StopSearchQuery(text: text) { _ = try? query.prepared() }
                if let successor = SQLPredicate.successor(of: text) {
                    precondition(text.utf8.lexicographicallyPrecedes(successor.utf8), "successor not greater for \(text.debugDescription)")
                }
                _ = GTFSTime.seconds(text)
                _ = ServiceDate(gtfs: text)
            }
        }
    }
    do {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            try reader.consume(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), handler)
            offset = end
        }
        try reader.finish(handler)
    } catch {
        parsed.failure = "\(error)"
    }
    return parsed
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeed(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let chunk = 1 + Int(bytes.first ?? 0) % 17
    let whole = parse(bytes, chunk: max(size, 1), inspect: true)
    let chunked = parse(bytes, chunk: chunk, inspect: false)
    precondition(whole == chunked, "chunks of \(chunk) bytes parse differently from the whole input")
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

@_cdecl("fuzz_feed_main")
public func fuzzFeedMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzFeed(data, size) }
}
