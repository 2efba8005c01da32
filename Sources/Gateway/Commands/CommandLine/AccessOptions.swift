import SignalK

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
