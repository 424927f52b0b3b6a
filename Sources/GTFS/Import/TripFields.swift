import FetchRequest

/// Where trips.txt's fields are in the file and where their values go in the insert of `trips`,
/// found by name once, from the header: each value's slot by the column the model stores it in.
struct TripFields {
    /// The places of trip_id, route_id and service_id in the file.
    let tripID: Int, routeID: Int, serviceID: Int
    /// The slots of the key, the feed, trip_id, the route's key and the service's key.
    let keySlot: Int, feedSlot: Int, tripIDSlot: Int, routeSlot: Int, serviceSlot: Int
    /// The fields copied as they are, with their slots.
    let plain: [(field: Int, slot: Int)]
    /// The fields holding codes, with their slots and the codes allowed.
    let codes: [(field: Int?, slot: Int, allowed: ClosedRange<Int>)]
    /// The slots no field of this file fills (an absent plain field), set NULL in every row: the
    /// insert's blocks are reused.
    let unset: [Int]

    init(header: FeedTable, insertColumns: [String]) throws {
        let trips = TransitModel.entity("trips")
        let slot = { (column: String) -> Int in
            guard let slot = insertColumns.firstIndex(of: column) else { preconditionFailure("trips are inserted without \(column)") }
            return slot
        }
        (keySlot, feedSlot, tripIDSlot) = (slot(trips.keyColumn), slot(trips.keyColumn(of: "feed")), slot(trips.column(ofAttribute: "trip_id")))
        (routeSlot, serviceSlot) = (slot(trips.keyColumn(of: "route")), slot(trips.keyColumn(of: "service")))
        plain = CopiedFields(entity: "trips", table: Schema.trips, header: header, except: ["trip_id"]).copies.map { (field: $0.field, slot: slot($0.column)) }
        codes = [("direction_id", 0...1), ("wheelchair_accessible", 0...2), ("bikes_allowed", 0...2)].map {
            (field: header.optional($0.0), slot: slot(trips.column(ofAttribute: $0.0)), allowed: $0.1)
        }
        let written = Set([keySlot, feedSlot, tripIDSlot, routeSlot, serviceSlot] + plain.map(\.slot) + codes.map(\.slot))
        unset = insertColumns.indices.filter { !written.contains($0) }
        (tripID, routeID, serviceID) = (try header.required("trip_id"), try header.required("route_id"), try header.required("service_id"))
    }
}
