import ArgumentParser
import GTFS

/// A usage mistake that names something the database does not have (a stop, trip or route id):
/// on the command line it is a usage error like any other (exit 64); over HTTP it is a 404,
/// where other usage errors are a 400.
struct UnknownIDError: Error, CustomStringConvertible {
    let description: String
}

/// `error`, met while reading what the command line names, as the usage error to throw:
/// `UnknownIDError` when an id names nothing, else `ValidationError`; `name` prefixes the
/// message with the argument concerned ("FROM: no stop has stop_id …").
func usageError(_ error: TransitError, about name: String? = nil) -> Error {
    let message = name.map { "\($0): \(error.description)" } ?? error.description
    switch error {
    case .unknownStop, .unknownStopInFeeds, .unknownTrip, .unknownRoute: return UnknownIDError(description: message)
    default: return ValidationError(message)
    }
}
