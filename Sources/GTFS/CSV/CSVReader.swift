/// Reads CSV as GTFS feeds write it, from chunks of bytes pushed in as they arrive (a file read or
/// a zip entry inflating), calling back once per record. Nothing but the unfinished record is kept.
///
/// Accepts what is found in the wild: a UTF-8 byte-order mark, LF, CRLF or CR-only line ends,
/// quoted fields holding commas, doubled quotes and line breaks, spaces around header names,
/// blank lines, and no final line break. Refuses, with the line: an unterminated quote, text after
/// a closing quote, a record with more fields than the header (unless the extra ones are empty),
/// a record with fewer fields, duplicated header names, and a record over 16 MiB.
///
/// Written by hand rather than taken from a CSV package: on vilnius `stop_times.txt`
/// (445,217 rows) it parses several times faster than yaslab/CSV.swift 2.5.2 (figures in the
/// commit that added it), and it hands out fields as bytes, so integers never become `String`s.
public final class CSVReader {
    /// The file being read, for messages.
    public let fileName: String
    /// The header's column names, trimmed, once the first record has been read.
    public private(set) var header: [String] = []

    /// The longest record accepted, in bytes: past this, a quote was surely left open.
    public static let maximumRecordBytes = 16 << 20

    /// When true, records with more or fewer fields than the header are handed over as they are
    /// (the caller checks `CSVRecord.count`), so one bad row need not end the reading: batch
    /// questions report such a row and go on. Feeds keep the strict rule.
    public var acceptsRaggedRecords = false

    private var pending: [UInt8] = []
    /// The fields of the record being parsed: positions in `pending`.
    private var spans: UnsafeMutablePointer<FieldSpan>
    private var spanCapacity = 64
    private var spanCount = 0
    private var line = 1
    private var sawFirstBytes = false
    private var finished = false

    public init(fileName: String) {
        self.fileName = fileName
        pending.reserveCapacity(1 << 20)
        spans = .allocate(capacity: spanCapacity)
    }

    deinit { spans.deallocate() }

    @inline(__always)
    private func appendSpan(_ span: FieldSpan) {
        if spanCount == spanCapacity {
            let larger = UnsafeMutablePointer<FieldSpan>.allocate(capacity: spanCapacity * 2)
            larger.update(from: spans, count: spanCount)
            spans.deallocate()
            spans = larger
            spanCapacity *= 2
        }
        spans[spanCount] = span
        spanCount += 1
    }

    private var currentSpans: UnsafeBufferPointer<FieldSpan> {
        UnsafeBufferPointer(start: spans, count: spanCount)
    }

    /// Parses `chunk`, calling `handler` for every data record it completes.
    public func consume(_ chunk: UnsafeRawBufferPointer, _ handler: (CSVRecord) throws -> Void) throws {
        pending.append(contentsOf: chunk)
        if !sawFirstBytes {
            // The byte-order mark may arrive split across chunks: wait for three bytes.
            guard pending.count >= 3 else { return }
            stripByteOrderMark()
        }
        try parsePending(atEnd: false, handler)
    }

    private func stripByteOrderMark() {
        sawFirstBytes = true
        if pending.count >= 3, pending[0] == 0xEF, pending[1] == 0xBB, pending[2] == 0xBF {
            pending.removeFirst(3)
        }
    }

    /// Parses what is left at the end of the file, calling `handler` for the last record.
    public func finish(_ handler: (CSVRecord) throws -> Void) throws {
        guard !finished else { return }
        finished = true
        if !sawFirstBytes { stripByteOrderMark() }
        try parsePending(atEnd: true, handler)
        if header.isEmpty {
            throw FeedError(file: fileName, message: "the file is empty: it needs at least a header line naming its columns")
        }
    }

    private func parsePending(atEnd: Bool, _ handler: (CSVRecord) throws -> Void) throws {
        let consumed: Int = try pending.withUnsafeBufferPointer { buffer in
            var position = 0
            while position < buffer.count {
                let recordLine = line
                guard let (next, lineBreaks) = try parseRecord(buffer, from: position, atEnd: atEnd, line: recordLine) else {
                    if buffer.count - position > CSVReader.maximumRecordBytes {
                        throw FeedError(file: fileName, line: recordLine,
                                        message: "a record longer than 16 MiB: is a quote left open?")
                    }
                    break
                }
                line += lineBreaks
                try deliver(buffer, line: recordLine, handler)
                position = next
            }
            return position
        }
        if consumed == pending.count {
            pending.removeAll(keepingCapacity: true)
        } else if consumed > 0 {
            pending.removeFirst(consumed)
        }
    }

    private func deliver(_ buffer: UnsafeBufferPointer<UInt8>, line recordLine: Int, _ handler: (CSVRecord) throws -> Void) throws {
        // A blank line is one empty, unquoted field.
        if spanCount == 1, !spans[0].quoted {
            var isBlank = true
            for index in spans[0].start..<spans[0].end where buffer[index] != 0x20 && buffer[index] != 0x09 {
                isBlank = false
                break
            }
            if isBlank { return }
        }
        if header.isEmpty {
            try readHeader(buffer, line: recordLine)
            return
        }
        let record = CSVRecord(buffer: buffer, spans: currentSpans, line: recordLine)
        if spanCount != header.count, !acceptsRaggedRecords {
            if spanCount < header.count {
                throw FeedError(file: fileName, line: recordLine,
                                message: "\(spanCount) fields where the header has \(header.count)")
            }
            for extra in header.count..<spanCount where !record.isEmpty(extra) {
                throw FeedError(file: fileName, line: recordLine,
                                message: "\(spanCount) fields where the header has \(header.count)")
            }
        }
        try handler(record)
    }

    private func readHeader(_ buffer: UnsafeBufferPointer<UInt8>, line recordLine: Int) throws {
        let record = CSVRecord(buffer: buffer, spans: currentSpans, line: recordLine)
        var names: [String] = []
        var seen = Set<String>()
        for index in 0..<spanCount {
            guard let name = record.string(index) else {
                throw FeedError(file: fileName, line: recordLine, message: "the header is not valid UTF-8 text")
            }
            if !name.isEmpty, !seen.insert(name).inserted {
                throw FeedError(file: fileName, line: recordLine, field: name,
                                message: "the header names column '\(name)' twice")
            }
            names.append(name)
        }
        header = names
    }

    /// Parses one record starting at `start`: the index after it and the line breaks it spans,
    /// or nil when the buffer ends before the record does (and more bytes may come).
    /// Long because: it is the import's hottest loop; split into per-field steps (even `@inline(__always)`) it ran 12% more instructions (#40).
    private func parseRecord(_ p: UnsafeBufferPointer<UInt8>, from start: Int, atEnd: Bool, line recordLine: Int)
        throws -> (Int, Int)?
    {
        spanCount = 0
        let n = p.count
        var i = start
        var breaks = 0
        while true {
            if i < n, p[i] == 0x22 {
                // Quoted field.
                i += 1
                let fieldStart = i
                var escaped = false
                var fieldEnd = 0
                while true {
                    if i >= n {
                        if atEnd {
                            throw FeedError(file: fileName, line: recordLine,
                                            message: "a quoted field is never closed (unterminated quote)")
                        }
                        return nil
                    }
                    let byte = p[i]
                    if byte == 0x22 {
                        if i + 1 < n, p[i + 1] == 0x22 {
                            escaped = true
                            i += 2
                            continue
                        }
                        if i + 1 >= n, !atEnd { return nil }
                        fieldEnd = i
                        i += 1
                        break
                    }
                    if byte == 0x0A {
                        breaks += 1
                    } else if byte == 0x0D, !(i + 1 < n && p[i + 1] == 0x0A) {
                        if i + 1 >= n, !atEnd { return nil }
                        breaks += 1
                    }
                    i += 1
                }
                appendSpan(FieldSpan(start: fieldStart, end: fieldEnd, quoted: true, escaped: escaped))
                while i < n, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
                if i >= n {
                    if atEnd { return (i, breaks + 1) }
                    return nil
                }
                let byte = p[i]
                if byte == 0x2C {
                    i += 1
                    continue
                }
                if byte == 0x0A { return (i + 1, breaks + 1) }
                if byte == 0x0D {
                    if i + 1 < n { return (p[i + 1] == 0x0A ? i + 2 : i + 1, breaks + 1) }
                    if atEnd { return (i + 1, breaks + 1) }
                    return nil
                }
                throw FeedError(file: fileName, line: recordLine + breaks,
                                message: "text after the closing quote of field \(spanCount); a quote inside a quoted field must be doubled (\"\")")
            } else {
                // Unquoted field: up to the next comma or line break. A quote inside is kept as text.
                let fieldStart = i
                var byte: UInt8 = 0
                while i < n {
                    byte = p[i]
                    if byte == 0x2C || byte == 0x0A || byte == 0x0D { break }
                    i += 1
                }
                if i >= n {
                    if !atEnd { return nil }
                    appendSpan(FieldSpan(start: fieldStart, end: n, quoted: false, escaped: false))
                    return (n, breaks + 1)
                }
                appendSpan(FieldSpan(start: fieldStart, end: i, quoted: false, escaped: false))
                if byte == 0x2C {
                    i += 1
                    if i >= n {
                        if !atEnd { return nil }
                        appendSpan(FieldSpan(start: n, end: n, quoted: false, escaped: false))
                        return (n, breaks + 1)
                    }
                    continue
                }
                if byte == 0x0A { return (i + 1, breaks + 1) }
                // CR: alone, or the first half of CRLF.
                if i + 1 < n { return (p[i + 1] == 0x0A ? i + 2 : i + 1, breaks + 1) }
                if atEnd { return (i + 1, breaks + 1) }
                return nil
            }
        }
    }
}
