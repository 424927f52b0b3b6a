import Foundation

/// A small, valid GTFS feed written into a temporary folder, with any file replaced or removed,
/// so each test states only what it is about.
public struct FeedFixture: Sendable {
    /// The files of the feed, by name.
    public var files: [String: String]

    /// A minimal valid feed: one agency (Europe/Berlin), three stops, one route, one trip.
    public init() {
        files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.org,Europe/Berlin\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,First,52.5,13.4\nS2,Second,52.51,13.41\nS3,Third,52.52,13.42\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR,A,1,One,3\n",
            "trips.txt": "route_id,service_id,trip_id\nR,WD,T\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,S1,1\nT,08:10:00,08:10:00,S2,2\nT,08:20:00,08:20:00,S3,3\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20260101,20261231\n",
        ]
    }

    /// A feed of exactly these files, by name.
    public init(files: [String: String]) {
        self.files = files
    }

    /// A copy with `name` set to `contents` (nil removes the file).
    public func with(_ name: String, _ contents: String?) -> FeedFixture {
        var copy = self
        copy.files[name] = contents
        return copy
    }

    /// Writes the feed into `subfolder` of `directory`; returns the folder's path.
    @discardableResult
    public func write(to directory: TemporaryDirectory, as subfolder: String = "feed") throws -> String {
        for (name, contents) in files { try directory.write(subfolder + "/" + name, contents) }
        if files.isEmpty {
            try FileManager.default.createDirectory(atPath: directory.file(subfolder), withIntermediateDirectories: true)
        }
        return directory.file(subfolder)
    }
}
