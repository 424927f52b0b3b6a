/// Which runs of each pattern of one feed part run on one service date: one mask per pattern,
/// kept side by side in one growing allocation and found through a dense table by pattern number
/// (a scan reads one entry and the mask, and touches no object of the pattern's).
final class RunsOnDate {
    struct Key: Hashable {
        let part: Int
        let date: Int
        let realtime: Bool
    }

    /// `starts` of a pattern not worked out yet, and of one of which no run runs.
    static let unknown: Int32 = -2
    static let none: Int32 = -1

    let date: ServiceDate
    /// Whether the part's realtime data applies: then `candidates` holds the runs it may change.
    let realtime: Bool
    /// Per pattern number, where its mask starts in `masks` (or `unknown`, `none`).
    let starts: Slab<Int32>
    /// The masks, one Bool per run, and how much of the allocation they fill.
    private(set) var masks: UnsafeMutablePointer<Bool>
    private var capacity = 4096
    private var used = 0
    /// Per pattern number, the running runs realtime data may change (only patterns with some).
    var candidates: [Int: [Int]] = [:]

    init(date: ServiceDate, patternCount: Int, realtime: Bool) {
        self.date = date
        self.realtime = realtime
        starts = Slab(count: patternCount, fill: RunsOnDate.unknown)
        masks = .allocate(capacity: capacity)
    }

    deinit { masks.deallocate() }

    /// Keeps `mask` as pattern `number`'s (`none` when no run runs).
    func record(_ mask: [Bool], of number: Int) {
        guard mask.contains(true) else {
            starts[number] = RunsOnDate.none
            return
        }
        if used + mask.count > capacity {
            let grown = UnsafeMutablePointer<Bool>.allocate(capacity: max(2 * capacity, used + mask.count))
            grown.moveInitialize(from: masks, count: used)
            masks.deallocate()
            masks = grown
            capacity = max(2 * capacity, used + mask.count)
        }
        (masks + used).initialize(from: mask, count: mask.count)
        starts[number] = Int32(used)
        used += mask.count
    }

    /// A mask of one run that runs (a run as realtime data predicts it); never written.
    nonisolated(unsafe) static let single: UnsafeMutablePointer<Bool> = {
        let mask = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        mask.initialize(to: true)
        return mask
    }()
}
