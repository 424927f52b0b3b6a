import Foundation

/// The result of running a command: exit status, stdout and stderr.
public struct CommandRun {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    /// Runs `executable` with `arguments`, optionally in `directory` and with extra `environment`,
    /// and waits for it to end.
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                           environment: [String: String] = [:], timeout: Double = 120) throws -> CommandRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "TRANSIT_DB")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // A hang is a failure too: past the timeout the process is killed (and reported by signal).
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        // Read both pipes while the process runs, so a large output cannot block it.
        let errData = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CommandRun(status: process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus,
                          stdout: String(decoding: outData, as: UTF8.self),
                          stderr: String(decoding: errData.data, as: UTF8.self))
    }

    /// Runs the `transit` binary.
    public static func transit(_ arguments: [String], in directory: String? = nil,
                               environment: [String: String] = [:], timeout: Double = 120) throws -> CommandRun {
        try run(Paths.transitBinary, arguments, in: directory, environment: environment, timeout: timeout)
    }
}

/// The SHA-like fingerprint of a file's bytes (FNV-1a 64), to show a file did not change.
public func fileFingerprint(_ path: String) -> UInt64? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    var hash: UInt64 = 0xcbf29ce484222325
    for byte in data {
        hash ^= UInt64(byte)
        hash = hash &* 0x100000001b3
    }
    return hash
}

/// Bytes written by one thread and read by another after a `DispatchGroup.wait()`.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
