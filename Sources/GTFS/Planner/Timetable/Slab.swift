/// A fixed number of plain values in memory of its own, read and written in place: the search's
/// labels, without Swift's exclusivity and copy-on-write checks on each access (a fifth of a
/// search's time with arrays held by a class).
final class Slab<Element> {
    private let base: UnsafeMutablePointer<Element>
    let count: Int

    init(count: Int, fill: Element) {
        self.count = count
        base = UnsafeMutablePointer<Element>.allocate(capacity: max(count, 1))
        base.initialize(repeating: fill, count: count)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
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
