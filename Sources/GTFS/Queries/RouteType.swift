import FetchRequest

/// GTFS `route_type`: the basic types and the extended (Hierarchical Vehicle Type) ones, by name.
public enum RouteType {
    /// The basic types' names, by number.
    static let basic: [Int: String] = [
        0: "tram", 1: "subway", 2: "rail", 3: "bus", 4: "ferry", 5: "cable tram", 6: "aerial lift",
        7: "funicular", 11: "trolleybus", 12: "monorail",
    ]

    /// The name of `type`: a basic type's, or for an extended type (100–1799) the basic kind it
    /// belongs to ("rail" for 100–199 railway services, "bus" for 700–799, …).
    public static func name(of type: Int) -> String {
        if let name = basic[type] { return name }
        switch type {
        case 100..<200, 300..<400: return "rail"
        case 200..<300: return "coach"
        case 400..<500: return "subway"
        case 700..<800: return "bus"
        case 800..<900: return "trolleybus"
        case 900..<1000: return "tram"
        case 1000..<1100, 1200..<1300: return "ferry"
        case 1100..<1200: return "air"
        case 1300..<1400: return "aerial lift"
        case 1400..<1500: return "funicular"
        case 1500..<1600: return "taxi"
        default: return "other (\(type))"
        }
    }

    /// The names `--type` takes.
    public static var names: [String] {
        Array(Set(basic.values).union(["coach", "air", "taxi"])).sorted()
    }

    /// True when `type` is of the kind `filter` names: a number (that type exactly) or a name
    /// (basic and extended types of that kind: "bus" is 3 and 700–799).
    public static func matches(_ type: Int, filter: String) -> Bool {
        if let number = Int(filter) { return type == number }
        return name(of: type) == filter.lowercased()
    }
}
