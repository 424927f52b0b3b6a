/// A feed unpacked into a folder of `.txt` files.
struct FolderFeed: FeedSource {
    let location: String
    private let names: Set<String>

    init(path: String) throws {
        guard let contents = FileSystem.contents(of: path) else {
            throw FeedError(file: path, message: "the folder cannot be read")
        }
        location = path
        names = Set(contents.filter { $0.hasSuffix(".txt") && FileSystem.kind(of: path + "/" + $0) == .file })
    }

    func contains(_ name: String) -> Bool { names.contains(name) }

    func read(_ name: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try FileSystem.read(location + "/" + name, body)
    }
}
