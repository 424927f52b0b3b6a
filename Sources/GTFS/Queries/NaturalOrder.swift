import FetchRequest

/// Natural order of names with numbers: runs of digits compare as numbers ("2" before "10",
/// "N2" before "N10"), everything else by code point.
public enum NaturalOrder {
    public static func precedes(_ a: String, _ b: String) -> Bool {
        var x = Array(a.unicodeScalars)[...], y = Array(b.unicodeScalars)[...]
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }
        while let p = x.first, let q = y.first {
            if isDigit(p) && isDigit(q) {
                let m = x.prefix { isDigit($0) }, n = y.prefix { isDigit($0) }
                let mm = m.drop { $0 == "0" }, nn = n.drop { $0 == "0" }
                if mm.count != nn.count { return mm.count < nn.count }
                for (c, d) in zip(mm, nn) where c != d { return c.value < d.value }
                if m.count != n.count { return m.count < n.count }
                x = x.dropFirst(m.count)
                y = y.dropFirst(n.count)
            } else {
                if p != q { return p.value < q.value }
                x = x.dropFirst()
                y = y.dropFirst()
            }
        }
        return x.isEmpty && !y.isEmpty
    }
}
