/// Consecutive stops of a feed's stop index (`PlannerStopIndex.blockSize` of them, fewer in the
/// last block), as one row of `planner_<feed>`: each stop's position, parent and type, the
/// patterns calling at it and, for a station, its boarding points. A search reads the block of a
/// stop the first time it needs one of them, so a question reads the stops it reaches, not the
/// feed's.
///
/// Stored (little-endian): the stop count n (u32); n latitudes, n longitudes (f64; NaN when
/// absent); n parent slots (i32; −1 when none); n location types (u8); n + 1 offsets (u32) into
/// the calls and n + 1 into the children; the calls as (pattern id, position) pairs (u32 each);
/// the children as stop slots (u32: the boarding points whose parent is the stop, in slot order).
final class StopBlock {
    let latitudes: [Double]
    let longitudes: [Double]
    /// The slot of each stop's parent station, −1 when none.
    let parents: [Int32]
    let locationTypes: [UInt8]
    /// Stop i of the block calls at `calls[callOffsets[i]..<callOffsets[i + 1]]`.
    let callOffsets: [UInt32]
    /// (pattern id, position in the pattern).
    let calls: [(pattern: UInt32, position: UInt32)]
    /// Stop i's boarding points are the slots `children[childOffsets[i]..<childOffsets[i + 1]]`.
    let childOffsets: [UInt32]
    let children: [UInt32]

    /// The stored form of the stops in `slots` of `stops`, with the calls and children of each
    /// slot.
    static func packed(_ slots: Range<Int>, of stops: PlannerStopIndex.Stops, calls: [[(UInt32, UInt32)]],
                       children: [[UInt32]]) -> [UInt8] {
        var writer = PackedWriter()
        writer.append(UInt32(slots.count))
        for slot in slots { writer.append(stops.latitudes[slot]) }
        for slot in slots { writer.append(stops.longitudes[slot]) }
        for slot in slots { writer.append(stops.parents[slot]) }
        for slot in slots { writer.append(stops.types[slot]) }
        for counts in [{ calls[$0].count }, { children[$0].count }] as [(Int) -> Int] {
            var offset: UInt32 = 0
            writer.append(offset)
            for slot in slots {
                offset += UInt32(counts(slot))
                writer.append(offset)
            }
        }
        for slot in slots {
            for (pattern, position) in calls[slot] {
                writer.append(pattern)
                writer.append(position)
            }
        }
        for slot in slots { for child in children[slot] { writer.append(child) } }
        return writer.bytes
    }

    init(latitudes: [Double], longitudes: [Double], parents: [Int32], locationTypes: [UInt8], callOffsets: [UInt32],
         calls: [(pattern: UInt32, position: UInt32)], childOffsets: [UInt32], children: [UInt32]) {
        (self.latitudes, self.longitudes, self.parents, self.locationTypes) = (latitudes, longitudes, parents, locationTypes)
        (self.callOffsets, self.calls, self.childOffsets, self.children) = (callOffsets, calls, childOffsets, children)
    }

    /// The block stored as `bytes`.
    init(packed bytes: UnsafeRawBufferPointer) throws {
        var reader = PackedReader(bytes)
        let count = Int(try reader.uint32())
        guard reader.hasBytes(count * 29 + 8) else { throw PackedReader.Truncated() }
        latitudes = try reader.doubles(count)
        longitudes = try reader.doubles(count)
        parents = try reader.integers(count, of: Int32.self)
        locationTypes = try reader.bytes(count)
        callOffsets = try reader.integers(count + 1, of: UInt32.self)
        childOffsets = try reader.integers(count + 1, of: UInt32.self)
        calls = try StopBlock.calls(Int(callOffsets[count]), from: &reader)
        children = try reader.integers(Int(childOffsets[count]), of: UInt32.self)
        guard callOffsets.indices.dropFirst().allSatisfy({ callOffsets[$0 - 1] <= callOffsets[$0] }),
              childOffsets.indices.dropFirst().allSatisfy({ childOffsets[$0 - 1] <= childOffsets[$0] }) else {
            throw PackedReader.Truncated()
        }
    }

    /// `count` calls as stored: (pattern id, position) pairs, u32 each.
    static func calls(_ count: Int, from reader: inout PackedReader) throws -> [(pattern: UInt32, position: UInt32)] {
        try reader.values(count, width: 8) { buffer, offset in
            (UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)),
             UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)))
        }
    }

    /// The calls at stop `index` of the block.
    @inline(__always) func calls(at index: Int) -> ArraySlice<(pattern: UInt32, position: UInt32)> {
        calls[Int(callOffsets[index])..<Int(callOffsets[index + 1])]
    }

    /// The slots of the boarding points of stop `index` of the block (a station's; none for
    /// other stops).
    func children(of index: Int) -> ArraySlice<UInt32> {
        children[Int(childOffsets[index])..<Int(childOffsets[index + 1])]
    }
}
