extension PlannerStopIndex {
    /// A stop index as a database written before the blocks stores it: whole, in row 0. It is
    /// read whole, as those builds read it, and serves the same blocks and tiles as a stored index
    /// would, each made from the arrays when first asked for, so that a search reads both forms
    /// through one path.
    ///
    /// Stored (little-endian): the stop count N (u32); N latitudes, N longitudes (f64); N parent
    /// slots (i32); N location types (u8); N + 1 offsets (u32) into the calls; the calls as
    /// (pattern id, position) pairs (u32 each).
    final class FirstForm {
        let index: PlannerStopIndex
        private let stops: Stops
        private let callOffsets: [Int]
        private let calls: [(pattern: UInt32, position: UInt32)]
        /// Per stop slot, the slots of its boarding points (a station's).
        private let children: [[UInt32]]
        private let tileSlots: [[Int]]

        /// The index stored as `bytes`.
        init(_ bytes: UnsafeRawBufferPointer) throws {
            var reader = PackedReader(bytes)
            let count = Int(try reader.uint32())
            guard reader.hasBytes(count * 21 + 4) else { throw PackedReader.Truncated() }
            var stops = Stops()
            stops.latitudes = try reader.doubles(count)
            stops.longitudes = try reader.doubles(count)
            stops.parents = try reader.integers(count, of: Int32.self)
            stops.types = try reader.bytes(count)
            callOffsets = try reader.integers(count + 1, of: UInt32.self, as: Int.self)
            guard zip(callOffsets, callOffsets.dropFirst()).allSatisfy({ $0 <= $1 }) else { throw PackedReader.Truncated() }
            calls = try StopBlock.calls(callOffsets[count], from: &reader)
            let tiles = Tiling(stops)
            (self.stops, children, tileSlots) = (stops, stops.childrenBySlot(), tiles.slots)
            index = PlannerStopIndex(firstForm: stops, tiles: tiles)
        }

        /// Block `number` of the index (as `StopBlock.packed` would store it).
        func block(_ number: Int) -> StopBlock {
            let slots = number * index.blockSize..<min(index.count, (number + 1) * index.blockSize)
            let first = callOffsets[slots.lowerBound]
            var childOffsets: [UInt32] = [0]
            var children: [UInt32] = []
            for slot in slots {
                children += self.children[slot]
                childOffsets.append(UInt32(children.count))
            }
            return StopBlock(latitudes: Array(stops.latitudes[slots]), longitudes: Array(stops.longitudes[slots]),
                             parents: Array(stops.parents[slots]), locationTypes: Array(stops.types[slots]),
                             callOffsets: callOffsets[slots.lowerBound...slots.upperBound].map { UInt32($0 - first) },
                             calls: Array(calls[first..<callOffsets[slots.upperBound]]), childOffsets: childOffsets, children: children)
        }

        /// Tile `number` of the index (as `StopTile.packed` would store it).
        func tile(_ number: Int) -> StopTile {
            let slots = tileSlots[number]
            return StopTile(slots: slots.map(UInt32.init), latitudes: slots.map { stops.latitudes[$0] },
                            longitudes: slots.map { stops.longitudes[$0] })
        }
    }
}
