/// One endpoint of the JSON API (`/api/nearby`, `/api/trip/{id}`, …): the `transit` command it
/// asks, and how its path and query parameters become that command's words. The parameters are
/// named as the command line's options (`max_rides` for `--max-rides`), so the API answers
/// exactly what the command line answers.
struct APIEndpoint: Sendable {
    /// How a parameter becomes words of the command line.
    enum Kind: Sendable {
        /// A positional argument, in the order the endpoint lists them.
        case argument
        /// `--flag VALUE`; a repeated parameter gives the option once per value.
        case option(String)
        /// `--flag` when the value is 1 or true (absent, 0 or false: nothing).
        case flag(String)
        /// `--flag` when the value is 0 or false (`realtime=0` is `--no-realtime`).
        case negatedFlag(String)
    }

    /// One query parameter (or the path's `{id}`).
    struct Parameter: Sendable {
        let name: String
        let kind: Kind
        var required = false
        /// May be given several times (`feed`).
        var repeatable = false
        /// The largest number the server accepts (`limit` ≤ 1000, `radius` ≤ 5000).
        var maximum: Double?
        /// The value used when the parameter is absent (`list`'s limit).
        var serverDefault: String?
        /// Words the command line's messages use for it ("FROM", "latitude"), to name the
        /// parameter of a 400.
        var mentions: [String] = []

        /// The option's flag, if the parameter is one.
        var flag: String? {
            switch kind {
            case .argument: return nil
            case .option(let flag), .flag(let flag), .negatedFlag(let flag): return flag
            }
        }
    }

    /// The name after `/api/`.
    let name: String
    /// The `transit` command it asks.
    let command: String
    /// The path's `{id}`, when the endpoint has one: it becomes the first positional argument.
    let pathParameter: Parameter?
    let parameters: [Parameter]
    /// The formats it writes (the first is the default).
    let formats: [String]
    /// Whether the answer changes with the clock when no `at`/`date` is given (so its ETag does).
    let followsClock: Bool

    /// The largest `limit` and `radius` a client may ask for.
    static let limitMaximum = 1000.0
    static let radiusMaximum = 5000.0

    private static let feed = Parameter(name: "feed", kind: .option("--feed"), repeatable: true)
    private static let limit = Parameter(name: "limit", kind: .option("--limit"), maximum: limitMaximum)
    private static let radius = Parameter(name: "radius", kind: .option("--radius"), maximum: radiusMaximum)
    private static let near = Parameter(name: "near", kind: .option("--near"))
    private static let stop = Parameter(name: "stop", kind: .option("--stop"), mentions: ["stop_id"])
    private static let at = Parameter(name: "at", kind: .option("--at"))
    private static let maxAge = Parameter(name: "max_age", kind: .option("--max-age"))
    private static let realtime = Parameter(name: "realtime", kind: .negatedFlag("--no-realtime"))
    private static let journey = [Parameter(name: "max_rides", kind: .option("--max-rides")),
                                  Parameter(name: "max_walk", kind: .option("--max-walk")),
                                  Parameter(name: "max_access_walk", kind: .option("--max-access-walk")),
                                  Parameter(name: "walk_speed", kind: .option("--walk-speed")), maxAge, realtime, feed]

    /// Every endpoint, by name.
    static let all: [String: APIEndpoint] = Dictionary(uniqueKeysWithValues: [
        APIEndpoint(name: "nearby", command: "nearby", pathParameter: nil, parameters: [
            Parameter(name: "lat", kind: .argument, required: true, mentions: ["latitude"]),
            Parameter(name: "lon", kind: .argument, required: true, mentions: ["longitude"]),
            radius, limit, Parameter(name: "platforms", kind: .flag("--platforms")), feed,
        ], formats: ["json", "geojson", "csv"], followsClock: false),
        APIEndpoint(name: "departures", command: "departures", pathParameter: nil, parameters: [
            stop, near, radius, at, Parameter(name: "within", kind: .option("--within")), limit, maxAge, realtime,
            Parameter(name: "cancelled", kind: .flag("--cancelled")), feed,
        ], formats: ["json", "geojson", "csv"], followsClock: true),
        APIEndpoint(name: "search", command: "search", pathParameter: nil, parameters: [
            Parameter(name: "text", kind: .argument, required: true), limit, Parameter(name: "platforms", kind: .flag("--platforms")),
            Parameter(name: "routes", kind: .flag("--routes")), feed,
        ], formats: ["json", "geojson", "csv"], followsClock: false),
        APIEndpoint(name: "trip", command: "trip", pathParameter: Parameter(name: "id", kind: .argument, required: true, mentions: ["trip_id"]), parameters: [
            Parameter(name: "date", kind: .option("--date")), maxAge, realtime, feed,
        ], formats: ["json", "geojson", "csv"], followsClock: true),
        APIEndpoint(name: "routes", command: "routes", pathParameter: nil, parameters: [
            stop, near, radius, Parameter(name: "type", kind: .option("--type")), feed,
        ], formats: ["json", "csv"], followsClock: false),
        APIEndpoint(name: "route", command: "route", pathParameter: Parameter(name: "id", kind: .argument, required: true, mentions: ["route_id"]), parameters: [
            feed,
        ], formats: ["json", "geojson", "csv"], followsClock: false),
        APIEndpoint(name: "feeds", command: "feeds", pathParameter: nil, parameters: [feed], formats: ["json", "csv"], followsClock: false),
        APIEndpoint(name: "alerts", command: "alerts", pathParameter: nil, parameters: [
            stop, near, radius, Parameter(name: "route", kind: .option("--route"), mentions: ["route_id"]), at,
            Parameter(name: "lang", kind: .option("--lang")), feed,
        ], formats: ["json", "csv"], followsClock: true),
        APIEndpoint(name: "vehicles", command: "vehicles", pathParameter: nil, parameters: [
            near, radius, Parameter(name: "route", kind: .option("--route"), mentions: ["route_id"]),
            Parameter(name: "trip", kind: .option("--trip"), mentions: ["trip_id"]), at, maxAge, feed,
        ], formats: ["json", "geojson", "csv"], followsClock: true),
        APIEndpoint(name: "list", command: "list", pathParameter: Parameter(name: "entity", kind: .argument, required: true, mentions: ["table"]), parameters: [
            Parameter(name: "where", kind: .option("--predicate"), mentions: ["predicate"]),
            Parameter(name: "arg", kind: .option("--arg"), repeatable: true),
            Parameter(name: "sort", kind: .option("--sort")),
            Parameter(name: "limit", kind: .option("--limit"), maximum: limitMaximum, serverDefault: "100"),
            Parameter(name: "offset", kind: .option("--offset")), feed,
        ], formats: ["json", "geojson", "csv"], followsClock: false),
        APIEndpoint(name: "plan", command: "plan", pathParameter: nil, parameters: [
            Parameter(name: "from", kind: .argument, required: true, mentions: ["FROM"]),
            Parameter(name: "to", kind: .argument, required: true, mentions: ["TO"]),
            at, Parameter(name: "arrive_by", kind: .option("--arrive-by")), Parameter(name: "stops", kind: .flag("--stops")),
        ] + journey, formats: ["json", "geojson", "csv"], followsClock: true),
        APIEndpoint(name: "reach", command: "reach", pathParameter: nil, parameters: [
            Parameter(name: "from", kind: .argument, required: true, mentions: ["FROM"]),
            at, Parameter(name: "within", kind: .option("--within")),
        ] + journey, formats: ["json", "geojson", "csv"], followsClock: true),
    ].map { ($0.name, $0) })

    /// The names each endpoint takes (its parameters, `format` and `explain`), made once rather
    /// than for every request.
    private static let acceptedNames: [String: Set<String>] = all.mapValues { Set($0.parameters.map(\.name) + ["format", "explain"]) }

    /// A mistake in a request's parameters: its message and the parameter concerned.
    struct Mistake: Error {
        let message: String
        let parameter: String?
    }

    /// The command line (after `transit`) that asks this endpoint's question, from the path's
    /// `{id}` (nil when absent) and the query's parameters; always ends with `--format FORMAT`.
    func arguments(id: String?, query: QueryString) throws(Mistake) -> [String] {
        let accepted = Self.acceptedNames[name] ?? []
        for (name, _) in query.pairs where !accepted.contains(name) {
            throw Mistake(message: "unknown parameter \(name); /api/\(self.name) takes "
                          + (parameters.map(\.name) + ["format", "explain"]).joined(separator: ", "), parameter: name)
        }
        var positional: [String] = []
        var options: [String] = []
        if let pathParameter {
            guard let id, !id.isEmpty else { throw Mistake(message: "the path needs the \(pathParameter.name): /api/\(name)/{\(pathParameter.name)}", parameter: pathParameter.name) }
            positional.append(id)
        }
        for parameter in parameters {
            var values: [String] = []
            for pair in query.pairs where pair.name == parameter.name { values.append(pair.value) }
            if values.isEmpty, let fallback = parameter.serverDefault { values = [fallback] }
            if values.isEmpty {
                if parameter.required { throw Mistake(message: "\(parameter.name) is required", parameter: parameter.name) }
                continue
            }
            if values.count > 1 && !parameter.repeatable {
                throw Mistake(message: "\(parameter.name) is given \(values.count) times; give it once", parameter: parameter.name)
            }
            for value in values {
                if let maximum = parameter.maximum, let number = Double(value), number > maximum {
                    throw Mistake(message: "\(parameter.name) is at most \(Int(maximum)) on this server; got \(value)", parameter: parameter.name)
                }
                switch parameter.kind {
                case .argument: positional.append(value)
                case .option(let flag): options += [flag, value]
                case .flag(let flag):
                    if try YesNoParameter.value(of: value, named: parameter.name) { options.append(flag) }
                case .negatedFlag(let flag):
                    if try !YesNoParameter.value(of: value, named: parameter.name) { options.append(flag) }
                }
            }
        }
        let format = query["format"] ?? formats[0]
        guard formats.contains(format) else {
            throw Mistake(message: "format is \(formats.joined(separator: ", ")) for /api/\(name); got '\(format)'", parameter: "format")
        }
        options += ["--format", format]
        // Positional words after `--` when one starts with a dash, so no value is read as an option.
        if positional.contains(where: { $0.hasPrefix("-") }) {
            return [command] + options + ["--"] + positional
        }
        return [command] + positional + options
    }

    /// The query commands a message may point to, as the endpoints that answer them.
    private static let endpointOfCommand = [
        ("`transit search TEXT`", "/api/search?text=TEXT"), ("`transit routes`", "/api/routes"), ("`transit feeds`", "/api/feeds"),
        ("`transit trip TRIP_ID`", "/api/trip/TRIP_ID"), ("`transit list TABLE`", "/api/list/TABLE"),
    ]

    /// A command-line message in the API's words: each flag this endpoint maps named as its
    /// parameter (`--at` → `at`; longer flags first, so `--max-access-walk` is not read as
    /// `--max`…), and the query commands it points to as their endpoints (an operator's command,
    /// `transit import` or `transit feeds upgrade`, stays: it is for whoever runs the server).
    func inAPIWords(_ message: String) -> String {
        var text = message
        for (command, endpoint) in Self.endpointOfCommand { text = text.replacingOccurrences(of: command, with: endpoint) }
        let named = ([pathParameter].compactMap { $0 } + parameters).compactMap { parameter in parameter.flag.map { ($0, parameter.name) } }
        for (flag, name) in named.sorted(by: { $0.0.count > $1.0.count }) {
            text = text.replacingOccurrences(of: flag, with: name)
        }
        return text
    }

    /// The parameter a command-line message is about: the one whose flag or words it names.
    func parameter(namedIn message: String) -> String? {
        for parameter in [pathParameter].compactMap({ $0 }) + parameters {
            if let flag = parameter.flag, message.contains(flag) { return parameter.name }
            if parameter.mentions.contains(where: { message.contains($0) }) { return parameter.name }
        }
        return nil
    }

    /// Whether the endpoint's answer for `query` depends on when it is asked.
    func followsClock(_ query: QueryString) -> Bool {
        followsClock && query["at"] == nil && query["arrive_by"] == nil && query["date"] == nil
    }
}
