/// Where a journey starts or ends: a stop's boarding points (a station's are its platforms, reached
/// in 0 s), or a point the rider walks from or to.
public enum JourneyPlace: Sendable, Equatable {
    /// Boarding points by database key (a stop, or a station's platforms).
    case stops(keys: [Int])
    /// A position; the rider walks between it and boarding points within the walk radius.
    case point(latitude: Double, longitude: Double)
}
