/// What `telltale fleet account` is told: who may look at the shore's panel.
public struct FleetAccountOptions: CommandOptions {
    public enum Action: String, Sendable {
        case add
        case list
        case remove
    }

    public var action = Action.list
    public var name: String?
    public var store = FleetOptions().store
    public var boat: String?
    /// `admin`, `committee`, `owner` or `crew` (checked by the command, which knows the roles).
    public var role: String?
    public var email: String?

    public init() {}

    public static let spec = CommandSpec(
        "fleet account",
        abstract: "Who may look at the shore's panel: accounts added, listed, removed.",
        discussion: """
            add NAME --role admin|committee|owner|crew [--boat BOAT] [--email ADDRESS] makes an account (or replaces \
            one of that name), its password read from standard input (a line, 8 characters or more) and kept as an \
            Argon2id hash. An owner or a crew sees its boat alone (--boat, the boat's uplink id), a committee every \
            boat of the race office's fleet file, the administrator everything. list prints the accounts; remove NAME \
            takes one away with its sessions. From the first account on, `telltale fleet` serves its panel to those \
            logged in only. See docs/fleet.md.
            """,
        flags: [
            .option(
                "store", "LOCATION", "The fleet's store: postgres://... or a SQLite file [telltale-fleet.sqlite].",
                example: "fleet.sqlite"),
            .option("role", "ROLE", "admin, committee, owner or crew.", example: "owner"),
            .option("boat", "BOAT", "The boat an owner or a crew sees (its uplink id).", example: "aurora"),
            .option("email", "ADDRESS", "Where the boat watch's alerts go.", example: "skipper@example.org"),
        ],
        arguments: [
            ArgumentSpec("ACTION", "add, list or remove.", example: "add"),
            ArgumentSpec("NAME", "The account's name (add, remove).", example: "skipper", optional: true),
        ],
        desktopOnly: true)

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        let text = CommandParser.text(value)
        switch flag {
        case "store": store = text
        case "role": role = text
        case "boat": boat = text
        case "email": email = text
        default: throw .unhandled(flag)
        }
    }

    public mutating func argument(_ word: String) throws(CommandError) {
        if name == nil, action == .list, !seenAction {
            guard let action = Action(rawValue: word) else {
                throw CommandError("fleet account: say add, list or remove (not \(word))", status: 64)
            }
            self.action = action
            seenAction = true
        } else if name == nil {
            name = word
        } else {
            throw CommandError("fleet account: one name at a time", status: 64)
        }
    }

    /// Whether the action word has been read (so `list` given is not taken for a name).
    private var seenAction = false

    public func validate() throws(CommandError) {
        if action != .list && name == nil {
            throw CommandError("fleet account \(action.rawValue): say NAME", status: 64)
        }
    }

    public static func == (a: FleetAccountOptions, b: FleetAccountOptions) -> Bool {
        a.action == b.action && a.name == b.name && a.store == b.store && a.boat == b.boat && a.role == b.role
            && a.email == b.email
    }
}
