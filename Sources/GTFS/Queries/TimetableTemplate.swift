import FetchRequest

/// The timetable's departures request of one shape (`DeparturesQuery.requestPerServiceDate` for
/// a number of stops, the stops as `$stop0`…), with the place of each of its variables among its
/// placeholders, found once when the shape is generated: a question then binds its stops and
/// each service date's window by position (`PreparedRequest.binding(_:)`), with no variable looked
/// up by name.
struct TimetableTemplate: Sendable {
    /// What a placeholder of the request takes.
    enum Variable: Sendable, Equatable {
        case date, from, to, limit
        /// The stop at this index of the question's stop keys.
        case stop(Int)
    }

    let request: PreparedRequest
    /// The request's variables in the order of its placeholders.
    let variables: [Variable]

    init(_ request: PreparedRequest) {
        self.request = request
        variables = request.variableNames.map { name in
            switch name {
            case "date": return .date
            case "from": return .from
            case "to": return .to
            case "limit": return .limit
            default:
                guard name.hasPrefix("stop"), let index = Int(name.dropFirst(4)) else {
                    preconditionFailure("the departures request has an unknown variable \(name)")
                }
                return .stop(index)
            }
        }
    }

    /// The request with its stops: `stops[i]` for `$stop<i>`.
    func binding(stops: [Int]) -> StopsBound {
        StopsBound(template: self, stops: stops)
    }

    /// A template whose stops are chosen, bound to one service date at a time.
    struct StopsBound {
        let template: TimetableTemplate
        let stops: [Int]

        /// The request for the service date `date` (yyyymmdd), the window `from`...`to` (its GTFS
        /// seconds) and at most `limit` rows (-1: all).
        func binding(date: Int, from: Int, to: Int, limit: Int) throws -> PreparedRequest {
            var values: [SQLValue] = []
            values.reserveCapacity(template.variables.count)
            for variable in template.variables {
                switch variable {
                case .date: values.append(.integer(Int64(date)))
                case .from: values.append(.integer(Int64(from)))
                case .to: values.append(.integer(Int64(to)))
                case .limit: values.append(.integer(Int64(limit)))
                case .stop(let index): values.append(.integer(Int64(stops[index])))
                }
            }
            return try template.request.binding(values)
        }
    }
}
