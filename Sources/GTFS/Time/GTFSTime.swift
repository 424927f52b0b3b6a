/// GTFS times of day: `H:MM:SS` or `HH:MM:SS` after the start of the service day, as seconds.
///
/// Values of 24:00:00 and more are normal: a trip that leaves at 25:10:00 on Monday's service
/// leaves at 01:10 on Tuesday.
public enum GTFSTime {
    /// The seconds of `text`, or nil when it is not `H+:MM:SS` with minutes and seconds below 60.
    public static func seconds(_ text: String) -> Int? {
        var copy = text
        return copy.withUTF8 { seconds(utf8: $0) }
    }

    /// The seconds of UTF-8 `bytes` (surrounding spaces allowed), or nil when they are not a time.
    public static func seconds(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        let length = end - start
        // H:MM:SS is 7 bytes, HHH:MM:SS 9: longer hours are no real timetable.
        guard length >= 7, length <= 9, bytes[end - 3] == 0x3A, bytes[end - 6] == 0x3A else { return nil }
        func digit(_ index: Int) -> Int? {
            let byte = bytes[index]
            return byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
        }
        var hours = 0
        for index in start..<(end - 6) {
            guard let value = digit(index) else { return nil }
            hours = hours * 10 + value
        }
        guard let m1 = digit(end - 5), let m2 = digit(end - 4), let s1 = digit(end - 2), let s2 = digit(end - 1),
              m1 < 6, s1 < 6 else { return nil }
        return hours * 3600 + (m1 * 10 + m2) * 60 + s1 * 10 + s2
    }

    /// `seconds` as `HH:MM:SS` (hours may exceed 23).
    public static func format(_ seconds: Int) -> String {
        ASCIIWriter.text(capacity: 80) { writer in
            writer.put(seconds / 3600, digits: 2)
            writer.put(":")
            writer.put((seconds % 3600) / 60, digits: 2)
            writer.put(":")
            writer.put(seconds % 60, digits: 2)
        }
    }

    /// `value` with at least two digits (`07`).
    public static func twoDigitsPublic(_ value: Int) -> String { twoDigits(value) }

    static func twoDigits(_ value: Int) -> String { ASCIIWriter.text(capacity: 24) { $0.put(value, digits: 2) } }
}
