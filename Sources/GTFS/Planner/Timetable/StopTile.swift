#if canImport(Glibc)
import Glibc
#endif

/// The boarding points with a position in one tile of a feed's map (`PlannerStopIndex` fixes
/// the tiles), as one row of `planner_<feed>`: what walks are measured over. A search reads the
/// tiles around the stops it reaches, so no process places every stop of a country on a grid.
///
/// Stored (little-endian): the count n (u32); n stop slots (u32, ascending); n latitudes and n
/// longitudes (f64).
final class StopTile {
    let slots: [UInt32]
    let latitudes: [Double]
    let longitudes: [Double]
    /// The cosine of each latitude (as `Geo.distance` works it out), so that measuring a walk
    /// from another stop computes none.
    let cosines: [Double]

    /// The stored form of the boarding points `slots` (ascending) of `stops`.
    static func packed(_ slots: [Int], of stops: PlannerStopIndex.Stops) -> [UInt8] {
        var writer = PackedWriter()
        writer.append(UInt32(slots.count))
        for slot in slots { writer.append(UInt32(slot)) }
        for slot in slots { writer.append(stops.latitudes[slot]) }
        for slot in slots { writer.append(stops.longitudes[slot]) }
        return writer.bytes
    }

    init(slots: [UInt32], latitudes: [Double], longitudes: [Double]) {
        (self.slots, self.latitudes, self.longitudes) = (slots, latitudes, longitudes)
        cosines = latitudes.map { cos($0 * .pi / 180) }
    }

    /// The tile stored as `bytes`.
    convenience init(packed bytes: UnsafeRawBufferPointer) throws {
        var reader = PackedReader(bytes)
        let count = Int(try reader.uint32())
        guard reader.hasBytes(count * 20) else { throw PackedReader.Truncated() }
        self.init(slots: try reader.integers(count, of: UInt32.self), latitudes: try reader.doubles(count), longitudes: try reader.doubles(count))
    }
}
