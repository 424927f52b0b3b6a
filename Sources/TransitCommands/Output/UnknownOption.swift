import ArgumentParser

/// One voice for an option a command does not declare, whoever meets it first: the parser, a
/// command's `validate()` (which may run before the parser reports what it did not use), or the
/// words of an argument that takes negative degrees. The message is swift-argument-parser's own:
/// `Unknown option '--stopp'. Did you mean '--stop'?`
enum UnknownOption {
    /// The first word of `arguments` (before a `--`) that is shaped as a long option and that
    /// `command` does not declare, without its `=VALUE`.
    static func first(in arguments: [String], of command: ParsableCommand.Type) -> String? {
        let declared = declaredOptions(of: command)
        for argument in arguments {
            if argument == "--" { return nil }
            guard argument.hasPrefix("--"), argument.count > 2 else { continue }
            let name = String(argument.split(separator: "=", maxSplits: 1)[0])
            if !declared.contains(name) { return name }
        }
        return nil
    }

    /// The usage error for `option`, suggesting the declared option nearest to it in spelling.
    static func error(_ option: String, of command: ParsableCommand.Type) -> ValidationError {
        let limit = max(2, option.count / 3)
        var nearest: (name: String, distance: Int)?
        for name in declaredOptions(of: command).sorted() {
            let distance = editDistance(option, name)
            if distance <= limit, distance < nearest?.distance ?? Int.max { nearest = (name, distance) }
        }
        let suggestion = nearest.map { ". Did you mean '\($0.name)'?" } ?? ""
        return ValidationError("Unknown option '\(option)'" + suggestion)
    }

    /// The long options `command` declares, as its help lists them (an error path only).
    private static func declaredOptions(of command: ParsableCommand.Type) -> Set<String> {
        var names: Set<String> = ["--help", "--version"]
        let help = Array(command.helpMessage(columns: 10_000).utf8)
        var index = 0
        while index + 2 < help.count {
            if help[index] == UInt8(ascii: "-"), help[index + 1] == UInt8(ascii: "-"), index == 0 || !isNameByte(help[index - 1]) {
                var end = index + 2
                while end < help.count, isNameByte(help[end]) { end += 1 }
                if end > index + 2 { names.insert(String(decoding: help[index..<end], as: UTF8.self)) }
                index = end
            } else {
                index += 1
            }
        }
        return names
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
    }

    /// Levenshtein distance between two option names.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
