import Engine

/// A command that sends the running gateway one word of the engine's own (`telltale race start`, `telltale route
/// advance`): the word, and the gateway's web port. The words are the engine's (``RaceCommand``, ``RouteCommand``).
public protocol WordCommandOptions: CommandOptions {
    associatedtype Word: RawRepresentable & CaseIterable & Sendable & Equatable where Word.RawValue == String
    var command: Word? { get set }
    var port: Int { get set }
    /// `race`, `route`.
    static var name: String { get }
    static var words: String { get }
    /// What the word asks of the engine.
    var engineCommand: EngineCommand? { get }
}

extension WordCommandOptions {
    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        guard flag == "port" else { throw .unhandled(flag) }
        port = try CommandParser.integer(flag, value)
    }

    public mutating func argument(_ word: String) throws(CommandError) {
        guard command == nil, let parsed = Word(rawValue: word) else {
            throw CommandError("\(Self.name): \(word)? say \(Self.words)", status: 64)
        }
        command = parsed
    }

    public func validate() throws(CommandError) {
        if command == nil { throw CommandError("\(Self.name): say \(Self.words)", status: 64) }
    }

    /// The spec of such a command: its name, what it does, the words with their help, and `--port`.
    static func described(abstract: String, help: (Word) -> String, example: String) -> CommandSpec {
        CommandSpec(
            name, abstract: abstract,
            discussion: "Talks to `telltale run` on this machine through its Signal K server ([web] in its "
                + "configuration). " + Word.allCases.map { "\($0.rawValue): \(help($0))." }.joined(separator: " "),
            flags: [.option("port", "PORT", "The gateway's [web] port.", example: "3001")],
            arguments: [ArgumentSpec(words, "What to do.", example: example)])
    }
}

/// What `telltale race WORD` is told.
public struct RaceOptions: WordCommandOptions {
    public var command: RaceCommand?
    public var port = 3000

    public init() {}

    public var engineCommand: EngineCommand? { command.map { .race($0) } }
    public static let name = "race"
    public static var words: String { RaceCommand.words }
    public static let spec = described(
        abstract: "The running gateway's race start timer, and the start line's ends pinged at the bow.",
        help: { $0.help }, example: "start")
}

/// What `telltale route WORD` is told.
public struct RouteOptions: WordCommandOptions {
    public var command: RouteCommand?
    public var port = 3000

    public init() {}

    public var engineCommand: EngineCommand? { command.map { .route($0) } }
    public static let name = "route"
    public static var words: String { RouteCommand.words }
    public static let spec = described(
        abstract: "The running gateway's route: start it again, pause, resume, stop, or skip a leg.",
        help: { $0.help }, example: "advance")
}

/// What `telltale alarm list` and `telltale alarm ack ALARM` are told.
public struct AlarmOptions: CommandOptions {
    /// Nil: list the alarms; else the one to acknowledge.
    public var acknowledge: AlarmKind?
    public var listing = false
    public var port = 3000

    public init() {}

    public static let spec = CommandSpec(
        "alarm", abstract: "List the running gateway's alarms, or acknowledge one.",
        discussion: """
            Talks to `telltale run` on this machine through its Signal K server ([web] in its configuration). An \
            alarm is named as in [alarms.text] (\(AlarmKind.allCases.map { $0.name }.joined(separator: ", "))), by its \
            ALR number, or by its Signal K path.
            """,
        flags: [.option("port", "PORT", "The gateway's [web] port.", example: "3001")],
        arguments: [
            ArgumentSpec("list|ack", "List the alarms, or acknowledge one.", example: "ack"),
            ArgumentSpec("ALARM", "The alarm to acknowledge.", example: "shallow", optional: true),
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        guard flag == "port" else { throw .unhandled(flag) }
        port = try CommandParser.integer(flag, value)
    }

    private var action: String?

    public mutating func argument(_ word: String) throws(CommandError) {
        guard let action else {
            guard word == "list" || word == "ack" else {
                throw CommandError("alarm: say list, or ack ALARM", status: 64)
            }
            self.action = word
            listing = word == "list"
            return
        }
        guard action == "ack", acknowledge == nil else { throw CommandError("alarm: one alarm at a time", status: 64) }
        guard let kind = AlarmKind.parse(word) else {
            throw CommandError(
                "alarm: \(word)? name one of " + AlarmKind.allCases.map { $0.name }.joined(separator: ", ")
                    + ", its ALR number or its path", status: 64)
        }
        acknowledge = kind
    }

    public func validate() throws(CommandError) {
        guard listing || acknowledge != nil else { throw CommandError("alarm: say list, or ack ALARM", status: 64) }
    }

    public static func == (a: AlarmOptions, b: AlarmOptions) -> Bool {
        a.acknowledge == b.acknowledge && a.listing == b.listing && a.port == b.port
    }
}

/// What `telltale access list|approve ID|deny ID|revoke CLIENT` is told.
public struct AccessOptions: CommandOptions {
    public enum Action: String, Sendable {
        case list, approve, deny, revoke
    }

    public var action: Action?
    /// The request to approve or deny, or the device (its client id) to revoke.
    public var target: String?
    public var port = 3000

    public init() {}

    public static let spec = CommandSpec(
        "access", abstract: "List the devices that asked to change things, and approve, deny or revoke them.",
        discussion: """
            A phone's app asks through Signal K's access request; until someone aboard approves it here (or from an \
            approved device), it may read but not change anything unless it is on a network in [web] put_networks. \
            Talks to `telltale run` on this machine through its Signal K server. A request is named by its id or \
            the first characters of it, as `list` shows them.
            """,
        flags: [.option("port", "PORT", "The gateway's [web] port.", example: "3001")],
        arguments: [
            ArgumentSpec("list|approve|deny|revoke", "What to do.", example: "approve"),
            ArgumentSpec(
                "ID", "The request to approve or deny, or the device to revoke.", example: "4f1c", optional: true),
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        guard flag == "port" else { throw .unhandled(flag) }
        port = try CommandParser.integer(flag, value)
    }

    public mutating func argument(_ word: String) throws(CommandError) {
        guard action != nil else {
            guard let action = Action(rawValue: word) else {
                throw CommandError("access: say list, approve ID, deny ID or revoke CLIENT", status: 64)
            }
            self.action = action
            return
        }
        guard target == nil, action != .list else { throw CommandError("access: one at a time", status: 64) }
        target = word
    }

    public func validate() throws(CommandError) {
        guard let action else {
            throw CommandError("access: say list, approve ID, deny ID or revoke CLIENT", status: 64)
        }
        if action != .list && target == nil { throw CommandError("access: \(action.rawValue) which?", status: 64) }
    }

    public static func == (a: AccessOptions, b: AccessOptions) -> Bool {
        a.action == b.action && a.target == b.target && a.port == b.port
    }
}

/// What `telltale anchor drop [RADIUS]|raise|radius [RADIUS]|rode LENGTH` is told.
public struct AnchorOptions: CommandOptions {
    public var command: AnchorCommand?
    public var port = 3000
    private var words: [String] = []

    public init() {}

    public static let spec = CommandSpec(
        "anchor", abstract: "The running gateway's anchor watch: drop, raise, the circle, the chain let out.",
        discussion: """
            Talks to `telltale run` on this machine through its Signal K server. drop: the anchor is down at the bow \
            (the GPS fix moved forward by [boat] bow_offset), with a circle of RADIUS metres or [anchor] radius. \
            raise: the watch ends. radius: the circle in metres, or without a number as far as the boat lies from \
            the anchor now and [anchor] margin. rode: metres of chain let out; the circle is the chain's reach at \
            the depth now (and [boat] bow_height), the bow's offset and the margin. The watch is kept across a \
            restart; the drag alarm sounds when the boat stays outside the circle for [anchor] hold seconds.
            """,
        flags: [.option("port", "PORT", "The gateway's [web] port.", example: "3001")],
        arguments: [
            ArgumentSpec("drop|raise|radius|rode", "What to do.", example: "drop"),
            ArgumentSpec("METRES", "The circle's radius, or the chain let out.", example: "40", optional: true),
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        guard flag == "port" else { throw .unhandled(flag) }
        port = try CommandParser.integer(flag, value)
    }

    public mutating func argument(_ word: String) throws(CommandError) {
        words.append(word)
        guard let command = AnchorCommand.parse(words.joined(separator: " ")) else {
            if words.count == 1, ["drop", "raise", "radius", "rode"].contains(word) { return }
            throw CommandError("anchor: say " + AnchorCommand.words, status: 64)
        }
        self.command = command
    }

    public func validate() throws(CommandError) {
        if command == nil { throw CommandError("anchor: say " + AnchorCommand.words, status: 64) }
    }

    public static func == (a: AnchorOptions, b: AnchorOptions) -> Bool { a.command == b.command && a.port == b.port }
}
