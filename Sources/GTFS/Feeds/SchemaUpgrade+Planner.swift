import FetchRequest

extension SchemaUpgrade {
    /// Writes the journey planner's timetable (and an empty transfers table) for each feed of a
    /// current-schema database imported before journey planning existed, in one write
    /// transaction; returns the names of the feeds given one. Their transfers.txt is not read
    /// again: re-importing a feed brings its transfer rules.
    @discardableResult
    public static func addJourneyPlannerTimetables(databaseAt path: String) throws -> [String] {
        guard case .current = try DatabaseFile.inspect(path) else { return [] }
        var added: [String] = []
        try WriteTransaction.run(path: path) { database in
            let feeds = try database.fetch(FetchRequest<Feed>().sorted(by: [Feed.column(Feed.columns.key).ascending]))
            for feed in feeds {
                let planner = Schema.planner(feed.key)
                guard try !SchemaObject.exists(planner.name, in: database) else { continue }
                try database.execute(Schema.transfers(feed.key).sqlIfNotExists)
                try database.execute(planner.sql)
                _ = try PlannerTimetableBuilder(database: database, feedKey: feed.key).build()
                added.append(feed.name)
            }
        }
        return added
    }
}
