#if canImport(Glibc)
import Glibc
#endif

/// Great-circle geometry on a sphere of the Earth's mean radius.
public enum Geo {
    /// The Earth's mean radius in metres (IUGG), the one haversine distances here use.
    public static let earthRadius = 6_371_008.8

    /// The haversine distance in metres between two points given in degrees.
    public static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let φ1 = lat1 * .pi / 180, φ2 = lat2 * .pi / 180
        let Δφ = (lat2 - lat1) * .pi / 180, Δλ = (lon2 - lon1) * .pi / 180
        let a = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * earthRadius * asin(min(1, sqrt(a)))
    }

    /// A latitude range and one or two longitude ranges (in degrees) that contain every point
    /// within `radius` metres of (`latitude`, `longitude`).
    ///
    /// A circle that crosses the 180° meridian needs two longitude ranges; one that reaches a pole
    /// needs every longitude. Longitudes follow J. Matuschek's bounding coordinates
    /// (Δλ = asin(sin r / cos φ)); a small margin keeps rounding from losing a point on the edge.
    public static func boundingBox(latitude: Double, longitude: Double, radius: Double)
        -> (latitudes: ClosedRange<Double>, longitudes: [ClosedRange<Double>])
    {
        let angular = radius / earthRadius
        let margin = 1e-7
        let Δφ = angular * 180 / .pi
        let south = latitude - Δφ - margin
        let north = latitude + Δφ + margin
        if south <= -90 || north >= 90 {
            return (max(south, -90)...min(north, 90), [-180...180])
        }
        let Δλ = asin(min(1, sin(angular) / cos(latitude * .pi / 180))) * 180 / .pi + margin
        let west = longitude - Δλ
        let east = longitude + Δλ
        if Δλ >= 180 { return (south...north, [-180...180]) }
        if west < -180 { return (south...north, [(west + 360)...180, -180...east]) }
        if east > 180 { return (south...north, [west...180, -180...(east - 360)]) }
        return (south...north, [west...east])
    }
}
