#if canImport(Glibc)
import Glibc
#endif

/// A fixed number of plain values in memory of its own, read and written in place: the search's
/// labels, without Swift's exclusivity and copy-on-write checks on each access (a fifth of a
/// search's time with arrays held by a class).
///
/// A slab of plain values whose fill is all zero bytes comes from `calloc`: a large block is
/// mapped zeroed by the system, and each page costs nothing until it is first written. A search
/// over a country's 129,300 stops writes the entries of the few it reaches, so it pays for those
/// pages only (filling every entry was a third of a `reach` process on the national feed).
final class Slab<Element> {
    private let base: UnsafeMutablePointer<Element>
    let count: Int
    /// Whether `base` came from `calloc` (plain values, freed with `free`).
    private let zeroed: Bool

    init(count: Int, fill: Element) {
        self.count = count
        let capacity = max(count, 1)
        if _isPOD(Element.self), withUnsafeBytes(of: fill, { $0.allSatisfy { $0 == 0 } }),
           let memory = calloc(capacity, MemoryLayout<Element>.stride) {
            base = memory.bindMemory(to: Element.self, capacity: capacity)
            zeroed = true
        } else {
            base = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
            base.initialize(repeating: fill, count: count)
            zeroed = false
        }
    }

    deinit {
        if zeroed {
            free(base)
        } else {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }

    /// The value at `index` (0..<count; checked in debug builds only, so that a release search
    /// reads it with one load).
    @inline(__always) subscript(index: Int) -> Element {
        get {
            assert(index >= 0 && index < count, "slab index \(index) outside 0..<\(count)")
            return base[index]
        }
        set {
            assert(index >= 0 && index < count, "slab index \(index) outside 0..<\(count)")
            base[index] = newValue
        }
    }

    /// The value of stop `stop`, in a slab of one value per stop.
    @inline(__always) subscript(stop: StopNumber) -> Element {
        get { self[stop.index] }
        set { self[stop.index] = newValue }
    }
}

/// Times (engine seconds), one per stop or per round and stop, `JourneySearch.unreached` until
/// written: kept as time XOR unreached, so that an entry never written is zero bytes and its
/// slab's pages are only paid for where a search writes (see `Slab`).
final class TimeSlab {
    private let slab: Slab<Int>
    var count: Int { slab.count }

    init(count: Int) { slab = Slab(count: count, fill: 0) }

    @inline(__always) subscript(index: Int) -> Int {
        get { slab[index] ^ JourneySearch.unreached }
        set { slab[index] = newValue ^ JourneySearch.unreached }
    }

    @inline(__always) subscript(stop: StopNumber) -> Int {
        get { self[stop.index] }
        set { self[stop.index] = newValue }
    }
}
