import FetchRequest

/// A feed's stops as the journey planner needs them, stored as row 0 of `planner_<feed>`: each
/// stop's position (walks are measured between them), parent station and `location_type`, and the
/// patterns calling at it with the position of each call. Stops are indexed by their slot in the
/// feed (key − feed base − 1), so a stop key finds its entry without a lookup.
///
/// Stored (little-endian): stop count N (u32); N latitudes, N longitudes (f64; NaN when absent);
/// N parent slots (i32; −1 when none); N location types (u8); N + 1 offsets (u32) into the calls;
/// the calls as (pattern id, position) pairs (u32 each).
struct PlannerStopIndex: Sendable {
    let latitudes: [Double]
    let longitudes: [Double]
    /// The slot of each stop's parent station, −1 when none.
    let parents: [Int32]
    let locationTypes: [UInt8]
    /// Stop slot s calls at `calls[offsets[s]..<offsets[s + 1]]`.
    let offsets: [UInt32]
    /// (pattern id, position in the pattern).
    let calls: [(pattern: UInt32, position: UInt32)]

    var count: Int { latitudes.count }

    /// A feed's stops as the index stores them, by slot (gaps in the keys filled with stops
    /// of no position, no parent, type 0).
    struct Stops {
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        var parents: [Int32] = []
        var types: [UInt8] = []

        /// The stops of feed `feedKey`, read from `database` in key order.
        init(database: Database, feedKey: Int) throws {
            let base = FeedKeys.base(of: feedKey)
            var stops = TransitModel.fetch("stops", feedKey: feedKey, inNaturalOrder: true)
            let selected = [stops.key, stops.key(of: "parent_station"), stops.required("stop_lat"), stops.required("stop_lon"),
                            stops.required("location_type")]
            // Read by position, in the order selected here.
            for (index, value) in selected.enumerated() { stops.select(value, as: "v\(index)") }
            try database.forEachRow(SQLGenerator.prepare(stops.requiredQuery())) { row in
                let slot = row.int(0) - base - 1
                while latitudes.count < slot {
                    latitudes.append(.nan); longitudes.append(.nan); parents.append(-1); types.append(0)
                }
                latitudes.append(row.optionalDouble(2) ?? .nan)
                longitudes.append(row.optionalDouble(3) ?? .nan)
                parents.append(Int32(row.optionalInt(1).map { $0 - base - 1 } ?? -1))
                types.append(UInt8(clamping: row.int(4)))
            }
        }
    }

    /// The stored form for the `stops` of feed `feedKey` and its `patterns` (ids from 1 in order).
    static func packed(_ stops: Stops, feedKey: Int, patternStops: [[Int]]) -> [UInt8] {
        let base = FeedKeys.base(of: feedKey)
        let (latitudes, longitudes, parents, types) = (stops.latitudes, stops.longitudes, stops.parents, stops.types)
        var callsByStop = [[(UInt32, UInt32)]](repeating: [], count: latitudes.count)
        for (index, stops) in patternStops.enumerated() {
            for (position, stop) in stops.enumerated() where stop - base - 1 < callsByStop.count {
                callsByStop[stop - base - 1].append((UInt32(index + 1), UInt32(position)))
            }
        }
        var writer = PackedWriter()
        writer.append(UInt32(latitudes.count))
        for value in latitudes { writer.append(value) }
        for value in longitudes { writer.append(value) }
        for value in parents { writer.append(value) }
        for value in types { writer.append(value) }
        var offset: UInt32 = 0
        writer.append(offset)
        for calls in callsByStop {
            offset += UInt32(calls.count)
            writer.append(offset)
        }
        for calls in callsByStop {
            for (pattern, position) in calls {
                writer.append(pattern)
                writer.append(position)
            }
        }
        return writer.bytes
    }

    /// The index stored as `bytes`.
    init(packed bytes: UnsafeRawBufferPointer) throws {
        var reader = PackedReader(bytes)
        let count = Int(try reader.uint32())
        guard reader.hasBytes(count * 21 + 4) else { throw PackedReader.Truncated() }
        latitudes = try reader.doubles(count)
        longitudes = try reader.doubles(count)
        parents = try reader.integers(count, of: Int32.self)
        locationTypes = try reader.bytes(count)
        offsets = try reader.integers(count + 1, of: UInt32.self)
        // Straight into the pairs: a national feed's index holds a million calls.
        calls = try reader.values(Int(offsets[count]), width: 8) { buffer, offset in
            (UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)),
             UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)))
        }
    }
}
