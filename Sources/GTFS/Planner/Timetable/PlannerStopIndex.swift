#if canImport(Glibc)
import Glibc
#endif
import FetchRequest

/// A feed's stops as the journey planner needs them, stored in `planner_<feed>` in pieces a
/// search reads as it reaches them: each stop's position, parent, type, the patterns calling at
/// it and a station's boarding points in blocks of consecutive stops (`StopBlock`), and the
/// boarding points again by tile of the map (`StopTile`), which walks are measured over. Row 0,
/// this header, says how many stops there are and which tiles hold any. Stops are indexed by
/// their slot in the feed (key − feed base − 1), so a stop key finds its block without a lookup.
///
/// Stored (little-endian) in row 0: a marker (u32 0xFFFFFFFF), the stop count N (u32), the block
/// size B (u32), a tile's height and width in degrees (f64 each), the tile count T (u32) and the
/// tiles as (row, column) pairs (i32 each) in ascending order. Block b (stops b·B…) is row
/// `blockID(b)`, tile t row `tileID(t)`.
///
/// A database written before the blocks holds the whole index in row 0 (the stop count first,
/// which is never the marker): it is read whole (`FirstForm`) and served in the same pieces.
struct PlannerStopIndex {
    static let marker: UInt32 = 0xFFFF_FFFF
    /// Stops per block: a block of the national feed's stops (8.5 calls each) is about 25 KB.
    static let blockSize = 256
    /// A tile's height in degrees (about 4.4 km: a city's tiles are a few rows, and a walk's box
    /// overlaps one to four); its width is as many metres where the feed's stops are on average.
    static let tileDegrees = 0.04
    /// The most stops a header may count: a hundred times a national feed's, so that a damaged
    /// count is refused rather than allocated for.
    static let largestStopCount = 1 << 24
    /// The tile sizes a header may give, in degrees.
    static let tileSizes = 0.0001...360.0
    static func blockID(_ block: Int) -> Int { -100_000_000 - block }
    static func tileID(_ tile: Int) -> Int { -200_000_000 - tile }

    let count: Int
    let blockSize: Int
    let tileLatitude: Double
    let tileLongitude: Double
    /// The tiles holding boarding points, as row × 2³² + column, ascending.
    let tileKeys: [Int]

    var blockCount: Int { (count + blockSize - 1) / blockSize }

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

        init() {}

        /// Per slot, the slots of the boarding points whose parent it is (a station's), ascending.
        func childrenBySlot() -> [[UInt32]] {
            var children = [[UInt32]](repeating: [], count: types.count)
            for slot in types.indices where types[slot] == 0 && parents[slot] >= 0 && Int(parents[slot]) < types.count {
                children[Int(parents[slot])].append(UInt32(slot))
            }
            return children
        }

        /// Whether slot `slot` is a boarding point with a position (what tiles hold).
        func isPlacedBoardingPoint(_ slot: Int) -> Bool {
            types[slot] == 0 && !latitudes[slot].isNaN && !longitudes[slot].isNaN
        }
    }

    /// The rows storing `stops` of feed `feedKey` and its `patterns` (their stop keys; ids from
    /// 1 in order): the header (row 0), the blocks and the tiles.
    static func rows(_ stops: Stops, feedKey: Int, patternStops: [[Int]]) -> [(id: Int, bytes: [UInt8])] {
        let base = FeedKeys.base(of: feedKey)
        var calls = [[(UInt32, UInt32)]](repeating: [], count: stops.latitudes.count)
        for (index, stops) in patternStops.enumerated() {
            for (position, stop) in stops.enumerated() where stop - base - 1 < calls.count {
                calls[stop - base - 1].append((UInt32(index + 1), UInt32(position)))
            }
        }
        return rows(stops, calls: calls)
    }

    /// The rows storing `stops` with each slot's `calls`.
    private static func rows(_ stops: Stops, calls: [[(UInt32, UInt32)]]) -> [(id: Int, bytes: [UInt8])] {
        let count = stops.latitudes.count
        let children = stops.childrenBySlot()
        let tiles = Tiling(stops)
        let index = PlannerStopIndex(count: count, blockSize: blockSize, tileLatitude: tileDegrees, tileLongitude: tiles.width,
                                     tileKeys: tiles.keys)
        var rows: [(id: Int, bytes: [UInt8])] = [(0, index.header)]
        for block in 0..<index.blockCount {
            let slots = block * blockSize..<min(count, (block + 1) * blockSize)
            rows.append((blockID(block), StopBlock.packed(slots, of: stops, calls: calls, children: children)))
        }
        for (tile, slots) in tiles.slots.enumerated() { rows.append((tileID(tile), StopTile.packed(slots, of: stops))) }
        return rows
    }

    /// Where a feed's boarding points with a position fall on tiles `tileDegrees` high: the
    /// tiles' width (as many metres where the stops are on average), and the tiles holding any
    /// (keys ascending) with their slots (ascending).
    struct Tiling {
        let width: Double
        let keys: [Int]
        let slots: [[Int]]

        init(_ stops: Stops) {
            let placed = stops.latitudes.indices.filter(stops.isPlacedBoardingPoint)
            let meanLatitude = placed.isEmpty ? 0 : placed.map { stops.latitudes[$0] }.reduce(0, +) / Double(placed.count)
            width = tileDegrees / max(cos(min(abs(meanLatitude), 80) * .pi / 180), 0.1)
            var slotsByTile: [Int: [Int]] = [:]
            for slot in placed {
                slotsByTile[tileKey(stops.latitudes[slot], stops.longitudes[slot], tileDegrees, width), default: []].append(slot)
            }
            keys = slotsByTile.keys.sorted()
            slots = keys.map { slotsByTile[$0]! }
        }
    }

    private init(count: Int, blockSize: Int, tileLatitude: Double, tileLongitude: Double, tileKeys: [Int]) {
        (self.count, self.blockSize, self.tileLatitude, self.tileLongitude, self.tileKeys) = (count, blockSize, tileLatitude, tileLongitude, tileKeys)
    }

    /// The header as row 0 stores it.
    private var header: [UInt8] {
        var header = PackedWriter()
        header.append(PlannerStopIndex.marker)
        header.append(UInt32(count))
        header.append(UInt32(blockSize))
        header.append(tileLatitude)
        header.append(tileLongitude)
        header.append(UInt32(tileKeys.count))
        for key in tileKeys {
            let (row, column) = PlannerStopIndex.tilePlace(key)
            header.append(Int32(truncatingIfNeeded: row))
            header.append(Int32(truncatingIfNeeded: column))
        }
        return header.bytes
    }

    /// The key of the tile holding a position (row × 2³² + column).
    private static func tileKey(_ latitude: Double, _ longitude: Double, _ height: Double, _ width: Double) -> Int {
        tileKey(row: Int((latitude / height).rounded(.down)), column: Int((longitude / width).rounded(.down)))
    }

    private static func tileKey(row: Int, column: Int) -> Int { row << 32 + column }

    /// The row and column of the tile keyed `key` (a column west of Greenwich is negative, and
    /// borrows from the row in the key).
    private static func tilePlace(_ key: Int) -> (row: Int, column: Int) {
        let column = Int(Int32(truncatingIfNeeded: key))
        return ((key - column) >> 32, column)
    }

    /// The header stored as `bytes`; nil when they hold the first form (`FirstForm`).
    init?(header bytes: UnsafeRawBufferPointer) throws {
        var reader = PackedReader(bytes)
        guard try reader.uint32() == PlannerStopIndex.marker else { return nil }
        count = Int(try reader.uint32())
        blockSize = Int(try reader.uint32())
        tileLatitude = try reader.double()
        tileLongitude = try reader.double()
        let tiles = Int(try reader.uint32())
        let pairs = try reader.integers(2 * tiles, of: Int32.self, as: Int.self)
        tileKeys = (0..<tiles).map { PlannerStopIndex.tileKey(row: pairs[2 * $0], column: pairs[2 * $0 + 1]) }
        // Sizes out of all reason (a damaged row) are refused before anything is allocated for them.
        guard count <= PlannerStopIndex.largestStopCount, (1...(1 << 16)).contains(blockSize),
              PlannerStopIndex.tileSizes.contains(tileLatitude), PlannerStopIndex.tileSizes.contains(tileLongitude),
              zip(tileKeys, tileKeys.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw PackedReader.Truncated()
        }
    }

    /// The index of `stops` (as a database written before the blocks holds it: `FirstForm`).
    init(firstForm stops: Stops, tiles: Tiling) {
        self.init(count: stops.latitudes.count, blockSize: PlannerStopIndex.blockSize, tileLatitude: PlannerStopIndex.tileDegrees,
                  tileLongitude: tiles.width, tileKeys: tiles.keys)
    }

    /// The block holding slot `slot`, and the slot's place in it.
    @inline(__always) func block(ofSlot slot: Int) -> (block: Int, index: Int) {
        let (block, index) = slot.quotientAndRemainder(dividingBy: blockSize)
        return (block, index)
    }

    /// A box holding every position within `radius` metres of a position: the circle's bounding
    /// box (`Geo.boundingBox`), on the position's side of the 180° meridian. Walks do not cross
    /// that meridian, as the walks the lower bounds are made with (`BoundCells.pairs`) do not: a
    /// search must take no walk they leave out.
    static func box(around latitude: Double, _ longitude: Double, within radius: Double)
        -> (latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>) {
        let box = Geo.boundingBox(latitude: latitude, longitude: longitude, radius: radius)
        return (box.latitudes, box.longitudes.first { $0.contains(longitude) } ?? box.longitudes[0])
    }

    /// The tiles (by their place in `tileKeys`) that `box` overlaps.
    func tiles(overlapping box: (latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>)) -> [Int] {
        func place(_ degrees: Double, _ size: Double) -> Int { Int((degrees / size).rounded(.down)) }
        let columns = place(box.longitudes.lowerBound, tileLongitude)...place(box.longitudes.upperBound, tileLongitude)
        var found: [Int] = []
        for row in place(box.latitudes.lowerBound, tileLatitude)...place(box.latitudes.upperBound, tileLatitude) {
            var tile = firstTile(atLeast: PlannerStopIndex.tileKey(row: row, column: columns.lowerBound))
            let last = PlannerStopIndex.tileKey(row: row, column: columns.upperBound)
            while tile < tileKeys.count, tileKeys[tile] <= last {
                found.append(tile)
                tile += 1
            }
        }
        return found
    }

    /// The place of the first tile whose key is `key` or more.
    private func firstTile(atLeast key: Int) -> Int {
        var (low, high) = (0, tileKeys.count)
        while low < high {
            let middle = (low + high) / 2
            if tileKeys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
