/// One optional value per index, of which a search sets few (a stop's walks, a pattern read):
/// a slab of zero bytes (see `Slab`) holds, per index, where its value is in a list of the
/// values set. Neither making it nor dropping it touches the indices never set: an array of
/// 129,400 nils, filled when made and released again when dropped, cost a `reach` process on
/// the national feed a tenth of its time in page faults and teardown.
final class SparseSlab<Element> {
    /// Per index, its value's position in `values` plus one (0: not set).
    private let slots: Slab<Int32>
    /// The values set, in the order they were first set.
    @exclusivity(unchecked) private var values: [Element] = []

    /// How many indices there are (0..<count).
    var count: Int { slots.count }

    /// Indices 0..<count, none set (a slot holds a value's position in 32 bits: fewer than 2³¹
    /// values are ever set, as each is read from the file).
    init(count: Int) {
        slots = Slab(count: count, fill: 0)
    }

    /// The value set at `index`, or nil. Setting nil forgets it (the value is kept until the
    /// slab is dropped; nothing here sets nil in a search's hot path).
    @inline(__always) subscript(index: Int) -> Element? {
        get {
            let slot = Int(slots[index])
            return slot == 0 ? nil : values[slot - 1]
        }
        set {
            let slot = Int(slots[index])
            guard let newValue else {
                slots[index] = 0
                return
            }
            if slot == 0 {
                values.append(newValue)
                slots[index] = Int32(values.count)
            } else {
                values[slot - 1] = newValue
            }
        }
    }

    /// The value of stop `stop`, in a slab of one value per stop.
    @inline(__always) subscript(stop: StopNumber) -> Element? {
        get { self[stop.index] }
        set { self[stop.index] = newValue }
    }
}
