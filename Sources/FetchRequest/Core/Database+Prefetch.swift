extension Database {
    /// The destination records of `relationship` for every record `request` describes, in one query
    /// (Core Data's `relationshipKeyPathsForPrefetching`): one extra query per relationship instead
    /// of one per record. Keyed by the destination column's value, so a record finds its related rows
    /// under its own `sourceColumn` value.
    ///
    ///     SELECT "routes".…, "routes"."id" FROM "routes"
    ///     WHERE "routes"."id" IN (SELECT "trips"."route" FROM "trips" WHERE …)
    public func fetchRelated<Source: Entity, Destination: Entity>(
        _ relationship: Relationship<Source, Destination>, of request: FetchRequest<Source>
    ) throws -> [SQLValue: [Destination]] {
        let sources = request.query.select([SelectedProperty(Column(relationship.sourceColumn, of: request.query.alias))])
        let table = Destination.tableName
        let query = Query(table: table)
            .select(Destination.columnNames.map { SelectedProperty(Column($0, of: table)) }
                    + [SelectedProperty(Column(relationship.destinationColumn, of: table), as: "prefetch_key")])
            .filter(Column(relationship.destinationColumn, of: table).isIn(sources))
        var related: [SQLValue: [Destination]] = [:]
        let keyIndex = Destination.columnNames.count
        try forEachRow(SQLGenerator.prepare(query)) { row in
            related[row.value(keyIndex), default: []].append(try Destination(row: row))
        }
        return related
    }
}
