import FetchRequest
import TestSupport

/// A small database made for the module's tests: lines, stations and visits.
struct Line: Entity, Equatable {
    static let tableName = "line"
    static let columnNames = ["id", "name", "color"]
    let id: Int
    let name: String
    let color: String?
    init(row: Row) throws {
        id = row.int(0)
        name = row.string(1)
        color = row.optionalString(2)
    }
}

struct Station: Entity, Equatable {
    static let tableName = "station"
    static let columnNames = ["id", "name", "line", "riders"]
    let id: Int
    let name: String
    let line: Int?
    let riders: Int
    init(row: Row) throws {
        id = row.int(0)
        name = row.string(1)
        line = row.optionalInt(2)
        riders = row.int(3)
    }
    /// station.line → line.id (to-one).
    static let lineOf = Relationship<Station, Line>(from: "line", to: "id")
    /// station.id ← visit.station (to-many).
    static let visits = Relationship<Station, Visit>(from: "id", to: "station")
}

struct Visit: Entity, Equatable {
    static let tableName = "visit"
    static let columnNames = ["id", "station", "minute"]
    let id: Int
    let station: Int
    let minute: Int
    init(row: Row) throws {
        id = row.int(0)
        station = row.int(1)
        minute = row.int(2)
    }
}

/// A fresh database in a temporary folder with the tables above filled in.
final class FixtureDatabase {
    let directory = TemporaryDirectory()
    let database: Database

    /// The rows, for tests that compute their expected answers: lines (id, name, color),
    /// stations (id, name, line, riders), visits (id, station, minute).
    static let lines: [[SQLValue]] = [[.integer(1), .text("U1"), .text("green")], [.integer(2), .text("U2"), .text("red")], [.integer(3), .text("S9"), .null]]
    static let stations: [[SQLValue]] = [
        [.integer(1), .text("Alexanderplatz"), .integer(2), .integer(900)],
        [.integer(2), .text("alte Münze"), .integer(2), .integer(150)],
        [.integer(3), .text("Bahnhof Zoo"), .integer(1), .integer(700)],
        [.integer(4), .text("50%_off \"Mall\""), .integer(1), .integer(40)],
        [.integer(5), .text("Łazienki"), .null, .integer(300)],
        [.integer(6), .text("Zwickau"), .integer(3), .integer(10)],
        [.integer(7), .text("Ńowy"), .integer(3), .integer(20)],
    ]
    static let visits: [[SQLValue]] = (1...12).map { index in
        [.integer(Int64(index)), .integer(Int64([1, 1, 1, 2, 3, 3, 5, 1, 3, 2, 6, 1][index - 1])), .integer(Int64(index * 5))]
    }

    init() throws {
        database = try Database(path: directory.file("test.sqlite"), mode: .readWrite)
        typealias C = TableDefinition.ColumnDefinition
        let tables = [
            TableDefinition("line", columns: [C("id", .integer, primaryKey: true), C("name", .text), C("color", .text)]),
            TableDefinition("station", columns: [C("id", .integer, primaryKey: true), C("name", .text), C("line", .integer), C("riders", .integer)]),
            TableDefinition("visit", columns: [C("id", .integer, primaryKey: true), C("station", .integer), C("minute", .integer)]),
        ]
        for table in tables { try database.execute(table.sql) }
        try database.execute(IndexDefinition("station_by_name", on: "station", columns: ["name"]).sql)
        try database.execute(IndexDefinition("visit_by_station", on: "visit", columns: ["station", "minute"]).sql)
        let (lines, stations, visits) = (Self.lines, Self.stations, Self.visits)
        for (table, rows) in [(tables[0], lines), (tables[1], stations), (tables[2], visits)] {
            let insert = try database.makeStatement(table.insertSQL(columns: table.columnNames))
            for row in rows {
                try insert.bind(row)
                try insert.run()
            }
        }
    }

    /// The SQL and arguments of `query`, for golden-SQL assertions.
    func sql(_ query: Query) -> (String, [SQLValue]) {
        let prepared = SQLGenerator.prepare(query)
        return (prepared.sql, prepared.arguments)
    }

    func names(_ request: FetchRequest<Station>) throws -> [String] {
        try database.fetch(request).map(\.name)
    }
}
