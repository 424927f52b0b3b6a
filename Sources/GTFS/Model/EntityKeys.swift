import FetchRequest

/// The columns an entity is keyed and related by, read from its declaration in the model: the
/// queries and the importer name a key by the relationship it stands for (`trips.service`,
/// `stops.parent_station`) and a value by its attribute (`stop_times.arrival_time`), and the model
/// says which column holds it, so each is written once, where the entity is declared.
extension EntityDescription {
    /// The column that keys the entity's rows (`trips.id`, `realtime_feeds.feed`): its natural
    /// order, which for an entity keyed by one column is that column. Asking it of an entity keyed
    /// by several (`stop_times`) is a programming error.
    var keyColumn: String {
        guard naturalOrder.count == 1, let column = naturalOrder.first else {
            preconditionFailure("\(name) is keyed by several columns (\(naturalOrder)), not one")
        }
        return column
    }

    /// The column of the entity's table holding the key of its to-one relationship `name`
    /// (`trips.service`; `parent` for `stops.parent_station`).
    func keyColumn(of name: String) -> String {
        guard let relationship = relationship(name), !relationship.isToMany else {
            preconditionFailure("\(name) is not a to-one relationship of \(self.name) (\(keyDescription))")
        }
        return relationship.sourceColumn
    }

    /// The column of the entity's table storing its attribute `name` (`arrival` for
    /// `stop_times.arrival_time`). An attribute reached through a relationship or computed has
    /// none: asking is a programming error.
    func column(ofAttribute name: String) -> String {
        guard let attribute = attribute(name), case .column(let column) = attribute.source else {
            preconditionFailure("\(name) is not an attribute stored in a column of \(self.name) (\(keyDescription))")
        }
        return column
    }
}

extension ModelFetch {
    /// The fetched entity's key column, qualified by the fetch's alias (`"trips"."id"`).
    var key: SQLExpression { column(entity.keyColumn) }

    /// The column holding the key of the to-one relationship at the end of `path` (`service`,
    /// `trip.route`), joining the relationships before it: a fetch by a related row's key, which
    /// the relationship's index answers, without joining the related row itself.
    mutating func key(of path: String) -> SQLExpression {
        requiredColumn(at: keyColumnPath(of: path))
    }

    /// `key(of:)` as the dotted path `query(selecting:columns:)` takes and names its value by:
    /// the relationships before the last, then the column holding the last one's key
    /// (`trip.route` for a stop time's trip's route).
    func keyColumnPath(of path: String) -> String {
        var names = path.split(separator: ".").map(String.init)
        let last = names.removeLast()
        var owner = entity
        for name in names {
            guard let relationship = owner.relationship(name), !relationship.isToMany, let destination = model[relationship.destination] else {
                preconditionFailure("\(name) is not a to-one relationship of \(owner.name) (in \(path))")
            }
            owner = destination
        }
        return (names + [owner.keyColumn(of: last)]).joined(separator: ".")
    }
}

extension TransitModel {
    /// The entity `name` of the model (the same in every feed's model but for table names and key
    /// ranges); a name the model lacks is a programming error.
    static func entity(_ name: String, feedKey: Int = 0) -> EntityDescription {
        guard let entity = model(forFeedKey: feedKey)[name] else { preconditionFailure("the transit model has no entity \(name)") }
        return entity
    }

    /// `DELETE` of the rows of entity `name` that belong to the feed keyed `feedKey`, as the model
    /// scopes them (its key range in a shared table, its feed's column, or its parent rows'): what
    /// removing a feed, or its realtime data, deletes. An entity without a scope (a feed's own
    /// table, which is dropped whole) is a programming error.
    ///
    ///     DELETE FROM "trips" WHERE "trips"."id" BETWEEN ? AND ?
    static func deleteRows(of name: String, feedKey: Int) -> PreparedRequest {
        let entity = entity(name, feedKey: feedKey)
        guard let scope = entity.scope else { preconditionFailure("\(name) holds one feed's rows only: its table is dropped, not emptied") }
        return SQLGenerator.prepareDelete(from: entity.table, where: scope(entity.table))
    }
}
