import FetchRequest

/// The stop times of one feed where a rider can board on a service date, written in the model's
/// terms: what `departures` lists and `stats` counts.
///
/// A stop time is a departure on date D when its trip's service runs on D (`service_days`, an
/// `IN` over its date index), boarding is allowed (`pickup_type` is not 1) and it is not the
/// trip's last stop (`last_stop_sequence` is recorded in `trips` at import: one row lookup, not a
/// descent into stop_times per candidate row). The service tested is the stop time's own copy of
/// its trip's (`Schema.stopTimeService`, a number within the feed), which the `stop_times(stop,
/// departure, pickup_type, service_number)` index holds: the trip is looked up only for stop
/// times that run that day.
///
///     FROM "stop_times_1" AS "stop_times" JOIN "trips" AS "stop_times.trip" ON …
///     WHERE ("stop_times"."service_number" + ?) IN (SELECT DISTINCT "service_days"."service" FROM "service_days_1" AS "service_days" WHERE "date" = ?)
///       AND "stop_times"."pickup_type" IS NOT ? AND "stop_times"."stop_sequence" < "stop_times.trip"."last_stop_sequence"
enum BoardingStopTimes {
    /// A fetch of `feed`'s stop times a rider can board at on `date` (a bound value, or a
    /// template variable), nothing selected yet, no order. The date's services are read once
    /// into a list (`IN`), or, for a fetch of a row or two by key (`fewRows`), looked up per row
    /// (`EXISTS` on the service_days key), which spares reading every service of the day.
    static func fetch(feed: FeedTables, on date: SQLExpression, fewRows: Bool = false) -> ModelFetch {
        var fetch = TransitModel.fetch("stop_times", feedKey: feed.feed)
        var runningServices = TransitModel.fetch("service_days", feedKey: feed.feed)
        runningServices.filter(runningServices.required("date") == date)
        // The trip's service as the import copied it into the stop time (not an attribute): its
        // number within the feed, the service key minus the feed's base.
        let serviceNumber = fetch.column(Schema.stopTimeService.name)
        let base = SQLExpression.value(FeedKeys.base(of: feed.feed))
        let runningService = runningServices.key(of: "service")
        if fewRows {
            runningServices.filter(runningService == serviceNumber + base)
            fetch.filter(.exists(runningServices.requiredQuery()))
        } else {
            // The feed's base is added to the stop time's number, not taken from the key: the
            // key itself is selected, unique for the date, so SQLite sees the DISTINCT is
            // redundant and sorts nothing (on the national feed's 301 services a day that sort
            // was a third of a departures statement). DISTINCT marks the few values for
            // `PostgresStatementText`, which reads them once into an array on a server.
            runningServices.select(runningService, as: "service")
            fetch.filter((serviceNumber + base).isIn(runningServices.requiredQuery().distinctRows()))
        }
        fetch.filter(fetch.required("pickup_type").isNot(1))
        // The trip's last stop_sequence: a column the import adds to trips (`Schema.tripEnds`), not an attribute.
        let lastStopSequence = fetch.requiredColumn(at: ["trip", Schema.tripEnds.sequence.name].joined(separator: "."))
        fetch.filter(fetch.required("stop_sequence") < lastStopSequence)
        return fetch
    }
}

extension TransitModel {
    /// A fetch of `entity` in the model of the feed keyed `feedKey` — the queries' own requests,
    /// whose entities and key paths are written in the code — in no order but the one it is given,
    /// or with the entity's natural order after it (`inNaturalOrder`).
    static func fetch(_ entity: String, feedKey: Int, alias: String? = nil, inNaturalOrder: Bool = false) -> ModelFetch {
        guard var fetch = ModelFetch(entity: entity, in: model(forFeedKey: feedKey), alias: alias) else {
            preconditionFailure("the transit model has no entity \(entity)")
        }
        fetch.breaksTiesByNaturalOrder = inNaturalOrder
        return fetch
    }
}

extension ModelFetch {
    /// `value(_:)` for a key path written in the code: a mistake there is a programming error,
    /// which every test of the query catches.
    mutating func required(_ keyPath: String) -> SQLExpression {
        do { return try value(keyPath) } catch { preconditionFailure("\(error)") }
    }

    /// `faultedValue(_:)` for a key path written in the code.
    mutating func requiredFault(_ keyPath: String) -> SQLExpression {
        do { return try faultedValue(keyPath) } catch { preconditionFailure("\(error)") }
    }

    /// `column(at:)` for a key path written in the code.
    mutating func requiredColumn(at keyPath: String) -> SQLExpression {
        do { return try column(at: keyPath) } catch { preconditionFailure("\(error)") }
    }

    /// Selects `values[name]` for each of `names`, in their order: the requests whose rows are
    /// read at the places of names listed apart (`DepartureColumns`).
    mutating func select(_ names: some Sequence<String>, from values: [String: SQLExpression]) {
        for name in names {
            guard let value = values[name] else { preconditionFailure("no value given for the selected \(name)") }
            select(value, as: name)
        }
    }

    /// `query()` for a fetch whose key paths are written in the code.
    func requiredQuery() -> Query {
        do { return try query() } catch { preconditionFailure("\(error)") }
    }

    /// `expand(_:)` for a key path written in the code.
    mutating func requireExpanded(_ keyPath: String) {
        do { try expand(keyPath) } catch { preconditionFailure("\(error)") }
    }

    /// Also requires the predicate `format`, written in the code.
    mutating func require(format: String) {
        do { try filter(format: format) } catch { preconditionFailure("\(error)") }
    }
}
