import FetchRequest

/// Where stop_times.txt holds the fields the importer reads, and the slots of the insert into
/// `stop_times_<feed>` they fill: each field's column is the one the model stores it in
/// (`arrival_time` in `arrival`, `stop_id` as the key of `stop`). The fields every row fills come
/// first; an optional field the file lacks has no column in the insert, so it stays NULL (or its
/// default).
struct StopTimeFields {
    /// A field's place in the file and the insert's slot it fills.
    typealias Place = (field: Int, slot: Int)

    /// The insert's columns, in slot order.
    private(set) var insertColumns: [String] = []
    /// The slots of the values every row has.
    private(set) var slots = (trip: 0, sequence: 0, stop: 0, arrival: 0, departure: 0, service: 0)
    /// The places of `stop_id` and the times (nil: absent, as in a GTFS-Flex file).
    let places: (stop: Int?, arrival: Int?, departure: Int?)
    private(set) var headsign: Place?, pickup: Place?, dropOff: Place?, timepoint: Place?, distance: Place?
    /// GTFS-Flex's `location_id` and `location_group_id`: a row naming one instead of a stop is skipped.
    let flexLocation: [Int?]

    /// The fields of the file whose header `table` reads; throws when it lacks a required one.
    init(header table: FeedTable) throws {
        let stopTimes = TransitModel.entity("stop_times")
        places = (table.optional("stop_id"), table.optional("arrival_time"), table.optional("departure_time"))
        // GTFS-Flex rows name a location (or a group) instead of a stop, and a time window
        // instead of times: then stop_id and the times are not required columns.
        flexLocation = ["location_id", "location_group_id"].map { table.optional($0) }
        if places.stop == nil && flexLocation.allSatisfy({ $0 == nil }) { _ = try table.required("stop_id") }
        if table.optional("start_pickup_drop_off_window") == nil {
            _ = try table.required("arrival_time")
            _ = try table.required("departure_time")
        }
        slots = (trip: slot(stopTimes.keyColumn(of: "trip")), sequence: slot(stopTimes.column(ofAttribute: "stop_sequence")),
                 stop: slot(stopTimes.keyColumn(of: "stop")), arrival: slot(stopTimes.column(ofAttribute: "arrival_time")),
                 departure: slot(stopTimes.column(ofAttribute: "departure_time")), service: slot(Schema.stopTimeService.name))
        func place(_ attribute: String) -> Place? {
            table.optional(attribute).map { ($0, slot(stopTimes.column(ofAttribute: attribute))) }
        }
        headsign = place("stop_headsign")
        pickup = place("pickup_type")
        dropOff = place("drop_off_type")
        timepoint = place("timepoint")
        distance = place("shape_dist_traveled")
    }

    /// Adds `column` to the insert; returns its slot.
    private mutating func slot(_ column: String) -> Int {
        insertColumns.append(column)
        return insertColumns.count - 1
    }
}
