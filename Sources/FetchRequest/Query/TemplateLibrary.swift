import Synchronization

/// Named request templates: Core Data's `fetchRequestTemplate(forName:)` and
/// `fetchRequestFromTemplate(withName:substitutionVariables:)`.
///
/// A template is generated once; each use binds new values to its `$variables`. Its SQL text never
/// changes, so the connection's statement cache prepares it once however often it runs.
///
///     let library = TemplateLibrary()
///     library.register(Query(table: "stops").filter(Column("stop_id") == .variable("id")), as: "stopByID")
///     let request = try library.request(named: "stopByID", substituting: ["id": "HBF"])
public final class TemplateLibrary: Sendable {
    private let templates = Mutex<[String: PreparedRequest]>([:])

    public init() {}

    /// Stores `query` under `name`, generated once.
    public func register(_ query: Query, as name: String) {
        let prepared = SQLGenerator.prepare(query)
        templates.withLock { $0[name] = prepared }
    }

    /// The template named `name`, if registered.
    public func template(named name: String) -> PreparedRequest? {
        templates.withLock { $0[name] }
    }

    /// The template named `name` with its variables bound; throws when a variable has no value.
    public func request(named name: String, substituting values: [String: any SQLValueConvertible]) throws -> PreparedRequest {
        guard let template = template(named: name) else { throw RequestError.unknownTemplate(name: name) }
        return try template.substituting(values)
    }
}
