/// A command of `telltale` as a sailor runs it: its name, what it does, its flags and arguments. Described once, as
/// plain values; the desktop's swift-argument-parser commands take their names and help from it, the Pi build's
/// parser (``CommandParser``) reads it directly, and a test runs every flag through both.
public struct CommandSpec: Sendable {
    /// `run`, `check-config`, `calibrate level`.
    public let name: String
    public let abstract: String
    public let discussion: String
    public let flags: [FlagSpec]
    public let arguments: [ArgumentSpec]
    /// Only in the desktop build (the simulator and the benchmarks are not on the Pi).
    public let desktopOnly: Bool

    public init(
        _ name: String, abstract: String, discussion: String = "", flags: [FlagSpec] = [],
        arguments: [ArgumentSpec] = [], desktopOnly: Bool = false
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.flags = flags
        self.arguments = arguments
        self.desktopOnly = desktopOnly
    }

    public func flag(_ name: String) -> FlagSpec? { flags.first { $0.name == name } }

    /// `telltale run [--config FILE] [--input URL]...`
    public var usage: String {
        var words = ["telltale", name]
        for flag in flags {
            let value = flag.valueName.map { " " + $0 } ?? ""
            words.append("[--\(flag.name)\(value)]" + (flag.repeats ? "..." : ""))
        }
        for argument in arguments {
            let word = argument.name + (argument.repeats ? "..." : "")
            words.append(argument.optional ? "[\(word)]" : word)
        }
        return words.joined(separator: " ")
    }

    /// The help a person reads: usage, what it does, each flag and argument.
    public var help: String {
        var lines = ["usage: " + usage, "", abstract]
        if !discussion.isEmpty { lines += ["", discussion] }
        if !arguments.isEmpty {
            lines.append("")
            for argument in arguments { lines.append("  " + argument.name.padding(to: 24) + argument.help) }
        }
        if !flags.isEmpty {
            lines.append("")
            for flag in flags {
                let head = "--" + flag.name + (flag.valueName.map { " " + $0 } ?? "")
                lines.append("  " + head.padding(to: 24) + flag.help)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One `--flag`: with a value (`--config FILE`) or without (`--fast`), once or repeated (`--input URL`...).
public struct FlagSpec: Sendable {
    public let name: String
    /// What the value is called in help (`FILE`, `URL`, `SECONDS`); nil for a flag that takes none.
    public let valueName: String?
    public let help: String
    public let repeats: Bool
    /// A value the flag takes, for examples and for the test that parses every flag on both builds.
    public let example: String

    /// A flag with a value.
    public static func option(
        _ name: String, _ valueName: String, _ help: String, example: String, repeats: Bool = false
    ) -> FlagSpec {
        FlagSpec(name: name, valueName: valueName, help: help, repeats: repeats, example: example)
    }

    /// A flag without a value.
    public static func flag(_ name: String, _ help: String) -> FlagSpec {
        FlagSpec(name: name, valueName: nil, help: help, repeats: false, example: "")
    }
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
    public let name: String
    public let help: String
    public let optional: Bool
    public let repeats: Bool
    public let example: String

    public init(_ name: String, _ help: String, example: String, optional: Bool = false, repeats: Bool = false) {
        self.name = name
        self.help = help
        self.example = example
        self.optional = optional
        self.repeats = repeats
    }
}

/// The plain values one command's flags and arguments come to: set flag by flag (by the Pi's parser, from the
/// spec) or filled in by the desktop's swift-argument-parser command; either way ``validate()`` has the last word.
public protocol CommandOptions: Sendable, Equatable {
    static var spec: CommandSpec { get }
    init()
    /// One flag of the spec, with its value (nil for a flag that takes none).
    mutating func set(_ flag: String, _ value: String?) throws(CommandError)
    /// One positional argument, in order.
    mutating func argument(_ word: String) throws(CommandError)
    /// The rules across flags; the first broken one.
    func validate() throws(CommandError)
}

extension CommandOptions {
    public mutating func argument(_ word: String) throws(CommandError) {
        throw CommandError("\(Self.spec.name) takes no argument \"\(word)\"")
    }

    public func validate() throws(CommandError) {}
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
