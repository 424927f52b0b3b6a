import Foundation

/// A small hand-made feed anywhere on Earth, for the tests that must hold in every quadrant of the
/// globe: one route of four stops 300 m apart along the parallel through a point, run both ways
/// every 20 minutes from 06:00 to 22:00 on every day of 2026, in a given time zone. Longitudes
/// wrap at ±180°, so a town on the antimeridian has stops on both sides of it.
public struct TownFeed: Sendable {
    /// A stop of the town: its id and position.
    public struct Stop: Sendable {
        public let id: String
        public let latitude: Double
        public let longitude: Double
        /// "LAT,LON", as the commands and the API take a point.
        public var point: String { "\(latitude),\(longitude)" }
    }

    public let name: String
    public let stops: [Stop]
    public let feed: FeedFixture

    /// The town around `latitude, longitude` (the middle of its line), named `name`.
    public init(name: String, latitude: Double, longitude: Double, timeZone: String) {
        self.name = name
        let step = 300 / (111_320 * cos(latitude * .pi / 180))
        stops = ["W2", "W1", "E1", "E2"].enumerated().map { index, id in
            var lon = longitude + (Double(index) - 1.5) * step
            if lon > 180 { lon -= 360 }
            if lon < -180 { lon += 360 }
            return Stop(id: id, latitude: latitude, longitude: (lon * 1e6).rounded() / 1e6)
        }
        var trips = "route_id,service_id,trip_id,trip_headsign,direction_id\n"
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for start in stride(from: 6 * 60, through: 22 * 60, by: 20) {
            for (direction, order) in [(0, stops), (1, Array(stops.reversed()))] {
                let trip = "\(direction == 0 ? "E" : "W")\(start)"
                trips += "L,D,\(trip),\(order.last!.id) \(name),\(direction)\n"
                for (sequence, stop) in order.enumerated() {
                    let minutes = start + sequence * 3
                    let time = String(format: "%02d:%02d:00", minutes / 60, minutes % 60)
                    stopTimes += "\(trip),\(time),\(time),\(stop.id),\(sequence + 1)\n"
                }
            }
        }
        feed = FeedFixture(files: [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,\(name) Transit,https://example.org,\(timeZone)\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n" + stops.map { "\($0.id),\(name) \($0.id),\($0.latitude),\($0.longitude)" }.joined(separator: "\n") + "\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nL,A,1,\(name) Line,3\n",
            "trips.txt": trips,
            "stop_times.txt": stopTimes,
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20261231\n",
        ])
    }

    /// The town's middle, "LAT,LON".
    public var middle: String {
        let west = stops[1], east = stops[2]
        var lon = (west.longitude + east.longitude) / 2
        if abs(west.longitude - east.longitude) > 180 { lon = lon >= 0 ? lon - 180 : lon + 180 }
        return "\(west.latitude),\(lon)"
    }
}
