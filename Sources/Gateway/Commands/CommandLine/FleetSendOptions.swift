/// What `telltale fleet send` is told: the letter the shore wrote for its helper.
public struct FleetSendOptions: CommandOptions {
    public var letter = ""

    public init() {}

    public static let spec = CommandSpec(
        "fleet send",
        abstract: "The shore's messenger: sends one alert the boat watch wrote (an e-mail, or a Web Push message).",
        discussion: """
            `telltale fleet` starts it for each alert to deliver, with the letter it wrote (a JSON file only its \
            user may read, removed as soon as it is read): an e-mail through the SMTP server of --smtp (STARTTLS or \
            smtps, the server's certificate checked), or a Web Push message to a phone's push service (RFC 8291's \
            encryption, VAPID). It says what happened on standard output; status 0 delivered, 75 to be tried again, \
            69 refused for good. See docs/fleet.md.
            """,
        flags: [],
        arguments: [ArgumentSpec("LETTER", "The letter's file (JSON).", example: "letter.json")],
        desktopOnly: true)

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) { throw .unhandled(flag) }

    public mutating func argument(_ word: String) throws(CommandError) {
        guard letter.isEmpty else { throw CommandError("fleet send: one letter at a time", status: 64) }
        letter = word
    }

    public func validate() throws(CommandError) {
        if letter.isEmpty { throw CommandError("fleet send: say the letter's file", status: 64) }
    }
}
