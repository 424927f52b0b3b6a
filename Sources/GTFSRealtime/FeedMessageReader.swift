import GTFS
import SwiftProtobuf

/// Turns binary GTFS-Realtime `FeedMessage`s into a `RealtimeDataset`: the protobuf decoding (code
/// generated from Protos/gtfs-realtime.proto) and the checks that make a bad message one clear
/// line rather than half-read data.
public enum FeedMessageReader {
    /// Decodes `bytes` read from `source` and appends what it holds to `dataset`. Unknown fields
    /// and extensions are skipped. Throws `RealtimeInputError` for an empty, truncated or
    /// non-protobuf input, a message without a header, or a DIFFERENTIAL one.
    public static func read(_ bytes: [UInt8], source: String, into dataset: inout RealtimeDataset) throws {
        guard !bytes.isEmpty else { throw RealtimeInputError(source: source, message: "is empty: no GTFS-Realtime message in it") }
        var options = BinaryDecodingOptions()
        options.discardUnknownFields = true
        let message: TransitRealtime_FeedMessage
        do {
            message = try TransitRealtime_FeedMessage(serializedBytes: bytes, partial: true, options: options)
        } catch let error as BinaryDecodingError {
            switch error {
            case .truncated:
                throw RealtimeInputError(source: source, message: "is truncated: the message ends inside a field (\(bytes.count) bytes)")
            default:
                throw RealtimeInputError(source: source, message: "is not a GTFS-Realtime FeedMessage (not valid protobuf: \(error))")
            }
        }
        guard message.hasHeader else {
            throw RealtimeInputError(source: source, message: "is not a GTFS-Realtime FeedMessage: it has no FeedHeader")
        }
        let header = message.header
        if header.incrementality == .differential {
            throw RealtimeInputError(source: source, message: "is a DIFFERENTIAL message: transit reads FULL_DATASET messages only (each read replaces all realtime data stored for the feed)")
        }
        var counts = RealtimeDataset.Source(name: source, timestamp: header.hasTimestamp ? Int(clamping: header.timestamp) : nil)
        for entity in message.entity where !entity.isDeleted {
            if entity.hasTripUpdate {
                counts.tripUpdates += 1
                dataset.tripUpdates.append(tripUpdate(entity.tripUpdate, id: entity.id))
            }
            if entity.hasVehicle {
                counts.vehicles += 1
                dataset.vehicles.append(vehicle(entity.vehicle, id: entity.id))
            }
            if entity.hasAlert {
                counts.alerts += 1
                dataset.alerts.append(alert(entity.alert, id: entity.id))
            }
        }
        dataset.sources.append(counts)
    }

    static func descriptor(_ trip: TransitRealtime_TripDescriptor) -> RealtimeDataset.TripDescriptor {
        RealtimeDataset.TripDescriptor(
            tripID: trip.hasTripID ? trip.tripID : nil,
            routeID: trip.hasRouteID ? trip.routeID : nil,
            directionID: trip.hasDirectionID ? Int(trip.directionID) : nil,
            startTime: trip.hasStartTime ? GTFSTime.seconds(trip.startTime) : nil,
            startDate: trip.hasStartDate ? ServiceDate(gtfs: trip.startDate) : nil,
            relationship: trip.hasScheduleRelationship ? trip.scheduleRelationship.rawValue : 0)
    }

    static func event(_ event: TransitRealtime_TripUpdate.StopTimeEvent) -> RealtimeDataset.Event? {
        guard event.hasTime || event.hasDelay else { return nil }
        return RealtimeDataset.Event(time: event.hasTime ? Int(event.time) : nil, delay: event.hasDelay ? Int(event.delay) : nil)
    }

    static func tripUpdate(_ update: TransitRealtime_TripUpdate, id: String) -> RealtimeDataset.TripUpdate {
        RealtimeDataset.TripUpdate(
            entityID: id,
            trip: descriptor(update.trip),
            vehicleID: update.hasVehicle && update.vehicle.hasID ? update.vehicle.id : nil,
            vehicleLabel: update.hasVehicle && update.vehicle.hasLabel ? update.vehicle.label : nil,
            stopTimeUpdates: update.stopTimeUpdate.map { stopTime in
                RealtimeDataset.StopTimeUpdate(
                    stopSequence: stopTime.hasStopSequence ? Int(stopTime.stopSequence) : nil,
                    stopID: stopTime.hasStopID ? stopTime.stopID : nil,
                    arrival: stopTime.hasArrival ? event(stopTime.arrival) : nil,
                    departure: stopTime.hasDeparture ? event(stopTime.departure) : nil,
                    relationship: stopTime.scheduleRelationship.rawValue)
            },
            timestamp: update.hasTimestamp ? Int(clamping: update.timestamp) : nil,
            delay: update.hasDelay ? Int(update.delay) : nil)
    }

    static func vehicle(_ position: TransitRealtime_VehiclePosition, id: String) -> RealtimeDataset.Vehicle {
        var vehicle = RealtimeDataset.Vehicle(entityID: id)
        if position.hasVehicle {
            vehicle.vehicleID = position.vehicle.hasID ? position.vehicle.id : nil
            vehicle.label = position.vehicle.hasLabel ? position.vehicle.label : nil
        }
        if position.hasTrip { vehicle.trip = descriptor(position.trip) }
        if position.hasPosition, position.position.hasLatitude, position.position.hasLongitude {
            vehicle.latitude = Double(position.position.latitude)
            vehicle.longitude = Double(position.position.longitude)
            vehicle.bearing = position.position.hasBearing ? Double(position.position.bearing) : nil
            vehicle.speed = position.position.hasSpeed ? Double(position.position.speed) : nil
        }
        vehicle.stopID = position.hasStopID ? position.stopID : nil
        vehicle.stopSequence = position.hasCurrentStopSequence ? Int(position.currentStopSequence) : nil
        vehicle.status = position.hasCurrentStatus || position.hasCurrentStopSequence || position.hasStopID ? position.currentStatus.rawValue : nil
        vehicle.timestamp = position.hasTimestamp ? Int(clamping: position.timestamp) : nil
        return vehicle
    }

    static func alert(_ message: TransitRealtime_Alert, id: String) -> RealtimeDataset.Alert {
        var alert = RealtimeDataset.Alert(entityID: id)
        alert.cause = message.hasCause ? message.cause.rawValue : nil
        alert.effect = message.hasEffect ? message.effect.rawValue : nil
        for (field, has, text) in [("header", message.hasHeaderText, message.headerText),
                                   ("description", message.hasDescriptionText, message.descriptionText),
                                   ("url", message.hasURL, message.url)] where has {
            for translation in text.translation {
                alert.texts.append(.init(field: field, language: translation.hasLanguage ? translation.language : nil, text: translation.text))
            }
        }
        alert.periods = message.activePeriod.map { ($0.hasStart ? Int(clamping: $0.start) : nil, $0.hasEnd ? Int(clamping: $0.end) : nil) }
        alert.entities = message.informedEntity.map { selector in
            var entity = RealtimeDataset.Alert.Entity()
            entity.agencyID = selector.hasAgencyID ? selector.agencyID : nil
            entity.routeID = selector.hasRouteID ? selector.routeID : nil
            entity.routeType = selector.hasRouteType ? Int(selector.routeType) : nil
            entity.tripID = selector.hasTrip && selector.trip.hasTripID ? selector.trip.tripID : nil
            entity.stopID = selector.hasStopID ? selector.stopID : nil
            entity.directionID = selector.hasDirectionID ? Int(selector.directionID) : nil
            return entity
        }
        return alert
    }
}

/// A realtime source that cannot be read, said in one line naming it.
public struct RealtimeInputError: Error, CustomStringConvertible {
    public let source: String
    public let message: String
    public init(source: String, message: String) {
        self.source = source
        self.message = message
    }
    public var description: String { "\(source): \(message)" }
}
