#if canImport(Glibc)
import Glibc
#endif

/// Feed ids to the database keys given to them in the order they were added (the first id gets
/// `firstKey`, the next `firstKey + 1`, …): what a `[String: Int]` did for trip_id, in less than
/// half the memory, as the table lives through the whole import and a national feed has millions
/// of trips (2.34 M: 44 MB instead of 101 MB).
///
/// The ids are kept one after the other in one byte array; an open-addressing table of 32-bit id
/// numbers (linear probing, at most 3/4 full) finds them by their hash. Ids are compared byte for
/// byte, as SQLite compares them (a `String` key would also match a canonically equivalent
/// spelling, such as "é" written as "e" and a combining accent).
struct IdentifierKeys {
    /// The key of the first id added.
    let firstKey: Int
    /// The ids, one after the other.
    private var bytes: [UInt8] = []
    /// Where each id ends in `bytes` (it starts where the one before ends).
    private var ends: [UInt32] = []
    /// Each id's number + 1, at a place found from its hash; 0 where empty. A power of two long.
    private var table = [UInt32](repeating: 0, count: 16)

    init(firstKey: Int) {
        self.firstKey = firstKey
    }

    /// How many ids were added.
    var count: Int { ends.count }

    /// The key of `id`, or nil when it was not added.
    subscript(id: String) -> Int? {
        var id = id
        return id.withUTF8 { bytes in
            let (place, found) = find(bytes)
            return found ? firstKey + Int(table[place]) - 1 : nil
        }
    }

    /// Adds `id` with the next key and returns that key, or nil when `id` is there already.
    mutating func add(_ id: String) -> Int? {
        if (count + 1) * 4 > table.count * 3 { grow() }
        var id = id
        return id.withUTF8 { id in
            let (place, found) = find(id)
            if found { return nil }
            bytes.append(contentsOf: id)
            precondition(bytes.count <= UInt32.max, "more than 4 GB of ids")
            ends.append(UInt32(bytes.count))
            table[place] = UInt32(ends.count)
            return firstKey + ends.count - 1
        }
    }

    /// Where `id` is in the table, or the empty place where it would go.
    private func find(_ id: UnsafeBufferPointer<UInt8>) -> (place: Int, found: Bool) {
        let mask = table.count - 1
        var place = Self.hash(id) & mask
        while true {
            let entry = table[place]
            if entry == 0 { return (place, false) }
            if matches(Int(entry) - 1, id) { return (place, true) }
            place = (place + 1) & mask
        }
    }

    /// Whether id number `number` is `id`.
    private func matches(_ number: Int, _ id: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = number == 0 ? 0 : Int(ends[number - 1])
        let end = Int(ends[number])
        guard end - start == id.count else { return false }
        return bytes.withUnsafeBufferPointer { bytes in
            id.isEmpty || memcmp(bytes.baseAddress! + start, id.baseAddress!, id.count) == 0
        }
    }

    /// Doubles the table and places every id again.
    private mutating func grow() {
        var table = [UInt32](repeating: 0, count: self.table.count * 2)
        let mask = table.count - 1
        bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            for (number, end) in ends.enumerated() {
                var place = Self.hash(UnsafeBufferPointer(rebasing: bytes[start..<Int(end)])) & mask
                while table[place] != 0 { place = (place + 1) & mask }
                table[place] = UInt32(number + 1)
                start = Int(end)
            }
        }
        self.table = table
    }

    private static func hash(_ id: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(id))
        return hasher.finalize()
    }
}
