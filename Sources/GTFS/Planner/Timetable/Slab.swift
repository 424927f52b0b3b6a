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

    @inline(__always) subscript(index: Int) -> Element {
        get { base[index] }
        set { base[index] = newValue }
    }
}
