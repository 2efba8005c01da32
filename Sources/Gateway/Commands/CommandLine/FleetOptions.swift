import Fleet

/// What `telltale fleet` is told.
public struct FleetOptions: CommandOptions {
    public var broker = ""
    public var listen = "0.0.0.0:3000"
    public var username: String?
    public var password: String?
    public var ca: String?
    /// Seconds to run (for tests and figures), nil for ever.
    public var duration: Double?
    /// A name for a session the broker keeps while this follower is stopped (#43): what boats publish meanwhile (QoS
    /// 1) is kept for it and given when it comes back. Nil: a clean session, nothing kept.
    public var session: String?

    public init() {}

    public static let spec = CommandSpec(
        "fleet", abstract: "The shore side: every boat that sends to a broker, on the panel's Fleet layout.",
        discussion: """
            Subscribes to telltale/+/# on the broker (mqtt://host[:port], or mqtts:// with --ca) and serves the panel \
            on --listen with a Fleet layout: every boat on the chart with its name, track, wind and alarms, and a \
            table of the boats with their last report's age. Needs nothing but the broker; a race committee's \
            laptop runs it as it is.
            """,
        flags: [
            .option(
                "broker", "URL", "The broker: mqtt://host[:port] or mqtts://host[:port].",
                example: "mqtt://127.0.0.1:1883"),
            .option("listen", "ADDRESS:PORT", "Where the panel is served.", example: "127.0.0.1:3005"),
            .option("username", "NAME", "The broker's user name.", example: "committee"),
            .option("password", "PASSWORD", "The broker's password.", example: "secret"),
            .option("ca", "FILE", "The broker's CA file (mqtts).", example: "ca.pem"),
            .option("duration", "SECONDS", "Stop after this long.", example: "60"),
            .option(
                "session", "NAME",
                "Keep a session on the broker by this name: what the boats send while the fleet is stopped comes "
                    + "when it is back.", example: "committee"),
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        let text = CommandParser.text(value)
        switch flag {
        case "broker": broker = text
        case "listen": listen = text
        case "username": username = text
        case "password": password = text
        case "ca": ca = text
        case "duration": duration = try CommandParser.number(flag, value)
        case "session": session = text
        default: throw .unhandled(flag)
        }
    }

    public func validate() throws(CommandError) {
        guard UplinkConfiguration.broker(broker) != nil else {
            throw CommandError("fleet: --broker mqtt://host[:port] or mqtts://host[:port]", status: 64)
        }
        if broker.hasPrefix("mqtts://") && ca == nil { throw CommandError("fleet: mqtts needs --ca", status: 64) }
        if let duration, !(duration > 0) { throw CommandError("--duration must be positive", status: 64) }
        if let session,
            session.isEmpty || session.utf8.count > 40
                || !session.utf8.allSatisfy({
                    ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45 || $0 == 95
                })
        {
            throw CommandError("fleet: --session is letters, digits, '-' and '_' (40 at most)", status: 64)
        }
    }
}
