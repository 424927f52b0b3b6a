import Foundation

/// A fresh folder under the system's temporary directory, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The folder's path.
    public let path: String

    public init() {
        var template = Array((NSTemporaryDirectory() + "transit-test-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "cannot create a temporary folder")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `contents` as UTF-8 to `name`, creating folders on the way; returns the path.
    @discardableResult
    public func write(_ name: String, _ contents: String) throws -> String {
        try write(name, bytes: Array(contents.utf8))
    }

    /// Writes raw `bytes` to `name`; returns the path.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) throws -> String {
        let target = file(name)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// The names in the folder, sorted.
    public func contents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
