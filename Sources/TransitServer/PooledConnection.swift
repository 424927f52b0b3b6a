import GTFS
import TransitCommands

/// One connection of the pool, used by one question at a time.
final class PooledConnection: @unchecked Sendable {
    private let path: String
    private var transit: TransitDatabase?
    /// The device and inode of the file `transit` has open.
    private var identity: FileIdentity?

    init(path: String) {
        self.path = path
    }

    /// The connection, opened (again, when the file was replaced: `current` is which file the
    /// path names now) and readied for a question: in a read transaction, which the caller ends
    /// (`finishQuestion`), limited to `timeLimit` milliseconds when given (set before the
    /// transaction begins: on a server, its `BEGIN` sets it in the same round trip).
    @discardableResult
    func ready(file current: FileIdentity?, timeLimit: Int? = nil) throws -> TransitDatabase {
        if let transit, current == identity {
            // Committed by another process since (a feed added in place, a realtime refresh): the
            // feeds the connection knows may have changed, so it opens the file again.
            transit.database.limitTime(toMilliseconds: timeLimit)
            if try transit.startNextQuestion() { return transit }
            try transit.finishQuestion()
        }
        transit = nil
        let opened = try TransitDatabase(path: path)
        try opened.prepareForManyQueries()
        try opened.finishQuestion()
        opened.database.limitTime(toMilliseconds: timeLimit)
        try opened.startNextQuestion()
        transit = opened
        identity = current
        return opened
    }

    /// How many times a question the database was busy for is asked (`HostedAnswer.Outcome.busy`).
    static let attempts = 3

    /// Answers `question` within `timeLimit` milliseconds of SQLite time; `file` is which file the
    /// path names now. A question the database was busy for is asked again on a connection opened
    /// anew, up to `attempts` times: on a hot standby, the replay of the primary's import cancels a
    /// read whose locks stand in its way (a "recovery conflict"), and PostgreSQL's documentation
    /// asks applications to retry it; the retry waits for the replay and sees the new feeds.
    func answer(_ question: HostedQuestion, explain: Bool, timeLimit: Int, file: FileIdentity?) -> HostedAnswer {
        var attempt = 1
        while true {
            let answer = answerOnce(question, explain: explain, timeLimit: timeLimit, file: file)
            guard answer.outcome == .busy, attempt < Self.attempts else { return answer }
            transit = nil
            attempt += 1
        }
    }

    /// One attempt of `answer`.
    private func answerOnce(_ question: HostedQuestion, explain: Bool, timeLimit: Int, file: FileIdentity?) -> HostedAnswer {
        let transit: TransitDatabase
        do {
            transit = try ready(file: file, timeLimit: timeLimit)
        } catch {
            self.transit = nil
            return HostedAnswer(unavailable: error)
        }
        defer {
            transit.database.limitTime(toMilliseconds: nil)
            // A connection that cannot end its transaction is opened anew for the next question.
            if (try? transit.finishQuestion()) == nil { self.transit = nil }
        }
        return question.answer(on: transit, explain: explain)
    }
}
