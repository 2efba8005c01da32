/// ACN, alert command (IEC 61162-1 edition 5, bridge alert management): acknowledge, silence, request repeat or
/// take responsibility for an alert.
///
/// `$--ACN,hhmmss.ss,aaa,x.x,x.x,c,a*hh`
/// time · manufacturer mnemonic (empty for standard alerts) · alert identifier · alert instance · command (`A`
/// acknowledge, `Q` request repeat, `O` responsibility transfer, `S` silence) · sentence status (`C` command)
public struct ACN: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x41, 0x43, 0x4E)  // "ACN"

    public enum Command: UInt8, Hashable, Sendable {
        case acknowledge = 0x41  // A
        case requestRepeat = 0x51  // Q
        case responsibilityTransfer = 0x4F  // O
        case silence = 0x53  // S
    }

    public var time: UTCTime?
    public var manufacturer: String?
    public var alertIdentifier: Int?
    public var alertInstance: Int?
    public var command: Command?

    public init(
        time: UTCTime? = nil, manufacturer: String? = nil, alertIdentifier: Int? = nil, alertInstance: Int? = nil,
        command: Command? = nil
    ) {
        self.time = time
        self.manufacturer = manufacturer
        self.alertIdentifier = alertIdentifier
        self.alertInstance = alertInstance
        self.command = command
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        time = try r.time()
        manufacturer = r.text()
        alertIdentifier = try r.integer()
        alertInstance = try r.integer()
        command = try r.character(oneOf: "AQOS").flatMap(Command.init(rawValue:))
        r.skip()
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.time(time)
        w.text(manufacturer, limit: 3)
        w.integer(alertIdentifier.map { min(max($0, 0), 9_999_999) })
        w.integer(alertInstance.map { min(max($0, 0), 999_999) })
        w.character(command?.rawValue)
        w.character(UInt8(ascii: "C"))
    }
}
