/// One autopilot as the gateway knows it (#41), in the words of Signal K's Autopilot API v2: its device id, who
/// speaks for it, its state, mode, target and whether it is engaged, the modes it has and what a command can do with
/// it. Read from the pilot's own messages by the shell (a Raymarine Evolution's SeaTalkng PGNs, a standard 127237,
/// pypilot's values); a pilot no longer heard is `off-line`. How the API writes it is `SignalK`'s
/// (`AutopilotStatus+SignalK`); what a command to it means is the autopilot desk's (`Bridge`).
public struct AutopilotStatus: Hashable, Sendable {
    /// The device id the API names it by (`raymarine-204`: its kind and bus address).
    public var id: String
    /// What speaks for it (`telltale-n2k`).
    public var provider: String
    /// `standby`, `auto`, or `off-line` when it is not heard; nil until it says.
    public var state: String?
    public var mode: String?
    /// Radians: a heading (0 to 2π), or in wind mode the apparent wind angle (±π, positive starboard).
    public var target: Double?
    public var targetIsMagnetic: Bool
    public var engaged: Bool?
    /// The modes such a pilot has (`compass`, `gps`, `wind`, `route`).
    public var modes: [String]
    /// What a command can do with such a pilot (the API's `options.actions`).
    public var actions: [String]

    public init(
        id: String, provider: String, state: String?, mode: String?, target: Double?, targetIsMagnetic: Bool,
        engaged: Bool?, modes: [String], actions: [String]? = nil
    ) {
        self.id = id
        self.provider = provider
        self.state = state
        self.mode = mode
        self.target = target
        self.targetIsMagnetic = targetIsMagnetic
        self.engaged = engaged
        self.modes = modes
        self.actions =
            actions
            ?? (modes.contains("route")
                ? ["dodge", "tack", "gybe", "courseCurrentPoint", "courseNextPoint"] : ["dodge", "tack", "gybe"])
    }
}
