/// The labels, parents and bests of searches over one timetable, allocated once and reused:
/// after a search only the cells it wrote are reset, so a batch of questions does not clear
/// (or page in) every stop's entries for each search.
final class SearchMemory {
    let stopCount: Int
    private(set) var roundCapacity = 0
    private(set) var rideLabels = TimeSlab(count: 0)
    private(set) var walkLabels = TimeSlab(count: 0)
    private(set) var rideParents = Slab<JourneySearch.RideParent>(count: 0, fill: .init())
    private(set) var walkParents = Slab<JourneySearch.WalkParent>(count: 0, fill: .init())
    private(set) var enteredFromWalk = Slab<Bool>(count: 0, fill: false)
    let bestRide: TimeSlab
    let bestWalk: TimeSlab
    let bestEnter: TimeSlab
    let enterLimit: TimeSlab
    /// Per pattern number, the position a round starts scanning it at, plus one (0: not marked,
    /// so that the slab starts as zero bytes: see `Slab`).
    let patternStart: Slab<Int32>
    /// Round cells (round × stops + stop) and stops written since the last reset (appended to
    /// without dynamic exclusivity checks, as `JourneySearch.bound`).
    @exclusivity(unchecked) var dirtyCells: [Int] = []
    @exclusivity(unchecked) var dirtyStops: [Int] = []

    init(stopCount: Int, patternCount: Int) {
        self.stopCount = stopCount
        bestRide = TimeSlab(count: stopCount)
        bestWalk = TimeSlab(count: stopCount)
        bestEnter = TimeSlab(count: stopCount)
        enterLimit = TimeSlab(count: stopCount)
        patternStart = Slab(count: patternCount, fill: 0)
    }

    /// Room for `rounds` rides (rounds + 1 rows of labels); a search holds the slabs it was given.
    func prepare(rounds: Int) {
        guard rounds + 1 > roundCapacity else { return }
        let count = (rounds + 1) * stopCount
        rideLabels = TimeSlab(count: count)
        walkLabels = TimeSlab(count: count)
        rideParents = Slab(count: count, fill: .init())
        walkParents = Slab(count: count, fill: .init())
        enteredFromWalk = Slab(count: count, fill: false)
        roundCapacity = rounds + 1
    }

    /// Resets what the last search wrote.
    func clean() {
        for index in dirtyCells {
            rideLabels[index] = JourneySearch.unreached
            walkLabels[index] = JourneySearch.unreached
            rideParents[index] = .init()
            walkParents[index] = .init()
            enteredFromWalk[index] = false
        }
        for stop in dirtyStops {
            bestRide[stop] = JourneySearch.unreached
            bestWalk[stop] = JourneySearch.unreached
            bestEnter[stop] = JourneySearch.unreached
        }
        dirtyCells.removeAll(keepingCapacity: true)
        dirtyStops.removeAll(keepingCapacity: true)
    }
}

extension JourneySearch {
    /// How a ride label was reached: the run ridden (pattern −1: not reached by a ride). All
    /// zero bytes when not reached (the pattern is kept plus one), for `Slab`'s zeroed pages.
    struct RideParent {
        private var patternPlusOne: Int32 = 0
        var run: Int32 = 0
        var enter: Int32 = 0
        var leave: Int32 = 0
        var day: Int32 = 0
        var pattern: Int32 { patternPlusOne - 1 }

        init() {}

        init(pattern: Int32, run: Int32, enter: Int32, leave: Int32, day: Int32) {
            (patternPlusOne, self.run, self.enter, self.leave, self.day) = (pattern + 1, run, enter, leave, day)
        }
    }

    /// How a walk label was reached: from a stop, from the point the search starts at
    /// (`fromPoint`), or as a source (`source`); `none` when not reached. All zero bytes when not
    /// reached (`from` is kept less `none`), for `Slab`'s zeroed pages.
    struct WalkParent {
        static let none: Int32 = -3
        static let source: Int32 = -2
        static let fromPoint: Int32 = -1
        private var fromLessNone: Int32 = 0
        var seconds: Int32 = 0
        var from: Int32 { fromLessNone + WalkParent.none }

        init() {}

        init(from: Int32, seconds: Int32) {
            (fromLessNone, self.seconds) = (from - WalkParent.none, seconds)
        }
    }
}
