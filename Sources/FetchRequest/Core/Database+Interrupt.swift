import CSQLite
#if canImport(Glibc)
import Glibc
#endif

extension Database {
    /// Until `stopInterruptingOnSignals()`, SIGINT, SIGTERM and SIGHUP interrupt what this
    /// connection is running (`sqlite3_interrupt`: the statement fails with `SQLITE_INTERRUPT`) and
    /// are recorded in `receivedSignal`, so a long write transaction can roll back and end cleanly
    /// instead of dying in the middle.
    public func interruptOnSignals() {
        interruptTarget = handle
        receivedSignalNumber = 0
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] { signal(signalNumber, interruptConnection) }
    }

    /// Gives the signals their default meaning again.
    public func stopInterruptingOnSignals() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] { signal(signalNumber, SIG_DFL) }
        interruptTarget = nil
    }

    /// The signal that interrupted the connection since `interruptOnSignals()`, or 0.
    public static var receivedSignal: Int32 { receivedSignalNumber }
}

nonisolated(unsafe) private var interruptTarget: OpaquePointer?
nonisolated(unsafe) private var receivedSignalNumber: Int32 = 0

private func interruptConnection(_ signalNumber: Int32) {
    receivedSignalNumber = signalNumber
    if let target = interruptTarget { sqlite3_interrupt(target) }
}
