#if canImport(Glibc)
import Glibc
#endif

/// The few file-system calls the tool needs, on the C library (no Foundation on the query path).
public enum FileSystem {
    /// What a path points at.
    public enum Kind { case file, directory, missing }

    /// What `path` points at (links followed).
    public static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .file
    }

    /// The names in folder `path` (not `.` and `..`), or nil when it cannot be read.
    public static func contents(of path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Reads file `path` in chunks of `chunkSize` bytes, calling `body` with each.
    public static func read(_ path: String, chunkSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw FeedError(file: path, message: "cannot be read: " + String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        try read(descriptor: descriptor, name: path, chunkSize: chunkSize, body)
    }

    /// Reads an open descriptor (standard input, say) to its end, calling `body` with each chunk as
    /// soon as it arrives: a pipe's rows are handled while the writer is still writing.
    public static func read(descriptor: Int32, name: String, chunkSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw FeedError(file: name, message: "cannot be read: " + String(cString: strerror(errno)))
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// `path` made absolute with links resolved (`realpath`), or nil when it does not exist.
    public static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The folder part of `path` (`.` when it has none).
    /// The folder holding the running program (`/proc/self/exe`), where its helper programs are
    /// installed beside it; nil where the system does not say.
    public static func programDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return directory(of: String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of `path`.
    public static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
