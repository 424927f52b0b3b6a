import FetchRequest

/// The box a feed's stops lie in: its southernmost and northernmost latitude and westernmost and
/// easternmost longitude (what the map fits its first view to and draws as the feed's area).
///
/// A feed whose stops straddle the antimeridian (Fiji, Chukotka) gets the box that spans it:
/// `west` greater than `east`, as GeoJSON's bbox writes it, when that box is the narrower one.
public struct FeedExtent: Sendable, Equatable {
    public let south: Double
    public let west: Double
    public let north: Double
    public let east: Double

    /// The extent of `feed`'s stops that have a position, or nil when none has: one aggregate
    /// request over the feed's stops (MIN and MAX of latitude and of longitude, and of the
    /// longitudes counted east of 0…360 for the antimeridian).
    public static func of(_ feed: Feed, in database: Database) throws -> FeedExtent? {
        var stops = TransitModel.fetch("stops", feedKey: feed.key)
        let (lat, lon) = (stops.required("stop_lat"), stops.required("stop_lon"))
        stops.filter(lat.isNotNull && lon.isNotNull)
        let eastward = SQLExpression.when(lon < 0.0, then: lon + 360.0, else: lon)
        for (name, value) in [("south", lat.min), ("north", lat.max), ("west", lon.min), ("east", lon.max),
                              ("west360", eastward.min), ("east360", eastward.max)] {
            stops.select(value, as: name)
        }
        guard let row = try database.fetchDictionaries(stops.requiredQuery()).first,
              let south = number(row["south"]), let north = number(row["north"]),
              let west = number(row["west"]), let east = number(row["east"]),
              let west360 = number(row["west360"]), let east360 = number(row["east360"]) else { return nil }
        if east360 - west360 < east - west {
            return FeedExtent(south: south, west: west360 > 180 ? west360 - 360 : west360, north: north, east: east360 > 180 ? east360 - 360 : east360)
        }
        return FeedExtent(south: south, west: west, north: north, east: east)
    }

    private static func number(_ value: SQLValue?) -> Double? {
        switch value {
        case .real(let number): return number
        case .integer(let number): return Double(number)
        default: return nil
        }
    }
}
