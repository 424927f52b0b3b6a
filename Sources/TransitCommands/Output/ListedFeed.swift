import ArgumentParser
import GTFS

/// A feed as `transit feeds` prints it.
struct ListedFeed: OutputRecord {
    let feed: String
    let record: Feed
    /// Where its stops lie (nil when none has a position).
    let extent: FeedExtent?

    init(_ record: Feed, extent: FeedExtent?) {
        self.record = record
        self.extent = extent
        feed = record.name
    }

    static let fieldNames = ["agencies", "time_zone", "stops", "stop_times", "trips", "routes", "first_date", "last_date",
                             "imported", "source", "south", "west", "north", "east"]
    var fieldValues: [OutputValue] {
        [.list(record.agencies), .text(record.timeZone.identifier), .integer(record.stops), .integer(record.stopTimes),
         .integer(record.trips), .integer(record.routes),
         record.serviceDates.map { .text($0.lowerBound.description) } ?? .null,
         record.serviceDates.map { .text($0.upperBound.description) } ?? .null,
         .text(record.importedAt), .text(record.source)]
            + [extent?.south, extent?.west, extent?.north, extent?.east].map { $0.map { .number($0, decimals: 6) } ?? .null }
    }
    var coordinate: (latitude: Double, longitude: Double)? { nil }
    static let tableHeaders = ["Feed", "Agencies", "Time zone", "Stops", "Stop times", "Service", "Imported", "Source"]
    static let rightAligned: Set<Int> = [3, 4]
    var tableCells: [String] {
        [feed, record.agencies.joined(separator: ", "), record.timeZone.identifier, formatCount(record.stops),
         formatCount(record.stopTimes), record.serviceDates.map { "\($0.lowerBound) to \($0.upperBound)" } ?? "",
         record.importedAt, record.source]
    }
}
