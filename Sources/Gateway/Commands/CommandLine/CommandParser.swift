/// The command line as the Pi build reads it, by hand (swift-argument-parser is not Embedded Swift): the words after
/// a command's name, matched against its ``CommandSpec`` and set into its options. `--name value` and `--name=value`
/// both work; the first word that is not a flag and every one after `--` are arguments.
public enum CommandParser {
    public static func parse<Options: CommandOptions>(
        _ words: some Collection<String>, as type: Options.Type = Options.self
    ) throws(CommandError) -> Options {
        let spec = Options.spec
        var options = Options()
        var rest = ArraySlice(words)
        var argumentsOnly = false
        while let word = rest.popFirst() {
            guard !argumentsOnly, word.hasPrefix("--"), word.count > 2 else {
                if word == "--" && !argumentsOnly {
                    argumentsOnly = true
                    continue
                }
                try options.argument(word)
                continue
            }
            let (name, inline) = split(word.dropFirst(2))
            guard let flag = spec.flag(name) else {
                if name == "help" { throw CommandError(spec.help, status: 0) }
                throw CommandError("\(spec.name): unknown option --\(name)\nusage: \(spec.usage)", status: 64)
            }
            if flag.valueName == nil {
                guard inline == nil else { throw CommandError("--\(name) takes no value", status: 64) }
                try options.set(name, nil)
                continue
            }
            guard let value = inline ?? rest.popFirst() else {
                throw CommandError("--\(name) needs a value (\(flag.valueName ?? "VALUE"))", status: 64)
            }
            try options.set(name, value)
        }
        try options.validate()
        return options
    }

    /// `name=value` split at the `=`.
    static func split(_ word: Substring) -> (String, String?) {
        guard let equals = word.firstIndex(of: "=") else { return (String(word), nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// A number a flag takes, or an error that names the flag.
    public static func number(_ flag: String, _ value: String?) throws(CommandError) -> Double {
        guard let value, let number = Double(value), number.isFinite else {
            throw CommandError("--\(flag) \(value ?? ""): not a number", status: 64)
        }
        return number
    }

    /// A whole number a flag takes.
    public static func integer(_ flag: String, _ value: String?) throws(CommandError) -> Int {
        guard let value, let number = Int(value) else {
            throw CommandError("--\(flag) \(value ?? ""): not a whole number", status: 64)
        }
        return number
    }

    /// The value of a flag that must have one (the parser has made sure).
    public static func text(_ value: String?) -> String { value ?? "" }
}
