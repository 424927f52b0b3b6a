/// A service alert from stored realtime data, with its text in the language chosen.
public struct ServiceAlert: Sendable {
    public let feed: String
    public let alertID: String
    public let cause: String?
    public let effect: String?
    public let header: String?
    public let description: String?
    public let url: String?
    /// The active period containing the time asked (nil ends: open; both nil: always active).
    public let activeFrom: Int?
    public let activeUntil: Int?
    /// The informed entities, as words: "route 1", "stop 107N", "agency MTA", "route type 1", "trip X".
    public let entities: [String]
}
