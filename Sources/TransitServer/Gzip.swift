import CGzip

/// gzip for answers whose client accepts it (`Accept-Encoding: gzip`), through the system zlib.
enum Gzip {
    /// Answers smaller than this go as they are: compressing them saves less than it costs.
    static let threshold = 1024

    /// `bytes` in the gzip format (RFC 1952), or nil if zlib fails.
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer rather than zlib's.
        guard deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))))
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }

    /// Whether an `Accept-Encoding` header accepts gzip (`gzip`, `gzip;q=0.5`, `*`; not `gzip;q=0`).
    static func isAccepted(by header: String?) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { part in
            let pieces = part.split(separator: ";").map { $0.trimmingWhitespace().lowercased() }
            guard let name = pieces.first, name == "gzip" || name == "*" else { return false }
            let quality = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
    }

    /// The entity tag of the gzip form of an answer tagged `tag` (a strong tag names one encoding).
    static func tag(_ tag: String) -> String {
        String(tag.dropLast()) + "-gzip\""
    }
}
