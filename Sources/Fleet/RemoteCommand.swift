import Engine
import SignalK

/// A command from shore (`telltale/<boat>/commands`), taken only when it is one of the few that make sense from
/// afar, signed with the key the boat and the shore share, and fresh: HMAC-SHA256 over the boat, the command, its
/// time and a nonce, the time within two minutes of the boat's clock, the nonce not seen before.
///
///     {"command": "race start", "time": 1764093600, "nonce": "a91f0c2e", "hmac": "<64 hex digits>"}
///
/// where the HMAC is over `boat + "\n" + command + "\n" + time + "\n" + nonce`. The commands: `race start`,
/// `race reset`, `acknowledge <alarm>` (an alarm's name, ALR number or path).
public enum RemoteCommand {
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case notJSON
        case missing(String)
        case badSignature
        case stale(Double)
        case replayed
        case notAllowed(String)

        /// A word for the kind of refusal (the log says each kind apart, a flood of one kind once).
        public var kind: String {
            switch self {
            case .notJSON: "not-json"
            case .missing: "missing"
            case .badSignature: "signature"
            case .stale: "stale"
            case .replayed: "replay"
            case .notAllowed: "not-allowed"
            }
        }

        public var description: String {
            switch self {
            case .notJSON: "not a JSON command"
            case .missing(let field): "no \(field)"
            case .badSignature: "the signature does not match (wrong key, or altered)"
            case .stale(let seconds): "\(Int64(seconds)) s away from the boat's clock (two minutes at most)"
            case .replayed: "a nonce already used (a replay)"
            case .notAllowed(let command):
                "\(command): not a command taken from shore (race start, race reset, acknowledge ALARM)"
            }
        }
    }

    /// The text signed for `command` at `time` with `nonce`.
    public static func signed(boat: String, command: String, time: Int64, nonce: String) -> [UInt8] {
        Array((boat + "\n" + command + "\n" + String(time) + "\n" + nonce).utf8)
    }

    /// The command in `payload`, or why it is refused. `seen` keeps the nonces taken (the last 256).
    public static func verify(
        _ payload: [UInt8], boat: String, key: [UInt8], now: Double, seen: inout [String]
    ) -> Result<EngineCommand, Refusal> {
        guard let json = JSONValue.parse(payload, maximumDepth: 3, maximumLength: 1024) else {
            return .failure(.notJSON)
        }
        guard let command = json["command"]?.string, command.utf8.count <= 96 else {
            return .failure(.missing("command"))
        }
        guard let time = json["time"]?.number, time.isFinite, abs(time) < 1e12 else {
            return .failure(.missing("time"))
        }
        guard let nonce = json["nonce"]?.string, (8...64).contains(nonce.utf8.count) else {
            return .failure(.missing("nonce (8 to 64 characters)"))
        }
        guard let hmac = json["hmac"]?.string, let given = hex(hmac), given.count == 32 else {
            return .failure(.missing("hmac"))
        }
        let expected = SHA256.hmac(key: key, signed(boat: boat, command: command, time: Int64(time), nonce: nonce))
        guard SHA256.equal(expected, given) else { return .failure(.badSignature) }
        guard abs(time - now) <= 120 else { return .failure(.stale(time - now)) }
        guard !seen.contains(nonce) else { return .failure(.replayed) }
        guard let engineCommand = parse(command) else { return .failure(.notAllowed(command)) }
        seen.append(nonce)
        if seen.count > 256 { seen.removeFirst(seen.count - 256) }
        return .success(engineCommand)
    }

    /// The engine's command a shore command names; nil for anything else.
    public static func parse(_ command: String) -> EngineCommand? {
        let words = command.split(separator: " ").map(String.init)
        switch words.first {
        case "race" where words.count == 2:
            return words[1] == "start" ? .race(.start) : words[1] == "reset" ? .race(.reset) : nil
        case "acknowledge" where words.count == 2:
            return AlarmKind.parse(words[1]).map { .acknowledge($0) }
        default:
            return nil
        }
    }

    static func hex(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard bytes.count % 2 == 0 else { return nil }
        func digit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 48...57: byte - 48
            case 97...102: byte - 87
            case 65...70: byte - 55
            default: nil
            }
        }
        var out: [UInt8] = []
        for index in stride(from: 0, to: bytes.count, by: 2) {
            guard let high = digit(bytes[index]), let low = digit(bytes[index + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }
}
