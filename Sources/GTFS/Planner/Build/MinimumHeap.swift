/// A binary heap of (key, value) pairs, smallest key first.
struct MinimumHeap {
    private var items: [(key: Int, value: Int)] = []

    mutating func push(_ key: Int, _ value: Int) {
        items.append((key, value))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].key < items[parent].key else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (key: Int, value: Int)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return top }
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, items[left].key < items[smallest].key { smallest = left }
            if right < items.count, items[right].key < items[smallest].key { smallest = right }
            guard smallest != parent else { return top }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
