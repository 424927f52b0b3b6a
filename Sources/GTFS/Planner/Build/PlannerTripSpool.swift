#if canImport(Glibc)
import Glibc
#endif

/// A scratch file of 32-bit values: where `PlannerTripCollector` puts each gathered trip's times
/// until `PlannerTimetableBuilder` packs its pattern, so that the import's memory does not grow
/// with the feed's stop times (kept in memory, a national feed's 44.5 M stop times held 356 MB).
///
/// The file is created beside the database (or in `$TMPDIR`) and unlinked at once: it has no name,
/// so nothing is left behind however the import ends, `kill -9` included. Values are appended
/// through a 1 MB buffer and read back with `pread`, not mapped: the kernel's page cache holds
/// them, outside the process's resident memory.
final class PlannerTripSpool {
    private let descriptor: Int32
    /// Appended values not written to the file yet.
    private var pending: [Int32] = []
    /// How many values the file holds.
    private var written = 0
    /// Why a write failed (a full disk), reported by the next read: appending cannot throw, as it
    /// runs in the import's per-row path.
    private var failure: String?
    private static let bufferCount = 1 << 18

    /// A spool in `directory`, or in `$TMPDIR` (else /tmp) when no file can be created there.
    init(directory: String) throws {
        let fallback = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var lastError: Int32 = 0
        for folder in [directory, fallback] {
            var template = Array((folder + "/.transit-planner-XXXXXX").utf8CString)
            let created = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if created >= 0 {
                unlink(template)
                descriptor = created
                pending.reserveCapacity(Self.bufferCount)
                return
            }
            lastError = errno
        }
        throw FeedError(file: directory, message: "cannot create the journey planner's scratch file: \(String(cString: strerror(lastError)))")
    }

    deinit { close(descriptor) }

    /// How many values were appended: the position of the next one.
    var count: Int { written + pending.count }

    /// Appends `values` after the ones before.
    func append(_ values: [Int32]) {
        pending.append(contentsOf: values)
        if pending.count >= Self.bufferCount { flush() }
    }

    /// Fills `target` with the values from `position` on (all appended before).
    func read(from position: Int, into target: UnsafeMutableBufferPointer<Int32>) throws {
        precondition(position >= 0 && position + target.count <= count, "reading past the spool's end")
        if position + target.count > written { flush() }
        if let failure { throw FeedError(file: "journey planner scratch file", message: failure) }
        let raw = UnsafeMutableRawBufferPointer(target)
        var done = 0
        while done < raw.count {
            let got = pread(descriptor, raw.baseAddress! + done, raw.count - done, off_t(position * 4 + done))
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else {
                let reason = got < 0 ? String(cString: strerror(errno)) : "ended early"
                throw FeedError(file: "journey planner scratch file", message: "cannot be read: \(reason)")
            }
            done += got
        }
    }

    /// Writes the pending values to the file; a failure is kept for the next read.
    private func flush() {
        defer {
            written += pending.count
            pending.removeAll(keepingCapacity: true)
        }
        guard failure == nil else { return }
        pending.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let wrote = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else {
                    failure = "cannot be written: " + (wrote < 0 ? String(cString: strerror(errno)) : "no space")
                    return
                }
                done += wrote
            }
        }
    }
}
