/// A pypilot autopilot (#41) over its own TCP protocol (port 23322): lines of `name=value`, the value in JSON. The
/// client asks to be told of values with `watch={"ap.enabled": true, ...}` and is sent each as it changes; it sets one
/// by sending `name=value`. Telltale watches `ap.enabled` (engaged or standby), `ap.mode` (`compass`, `gps`, `nav`,
/// `wind`, `true wind`) and `ap.heading_command` (degrees: 0 to 360 on the compass and GPS, ±180 off the wind), and
/// `ap.heading` to know it is alive. Facts from pypilot's published sources (`pypilot/server.py`, `client.py`,
/// `autopilot.py`); Telltale's own code. Pure: lines and the time in, lines out.
public struct PypilotLink: Sendable {
    /// What pypilot said last.
    public private(set) var enabled: Bool?
    public private(set) var mode: String?
    /// Degrees as pypilot holds it.
    public private(set) var headingCommand: Double?
    public private(set) var lastHeard: Double?
    /// Lines that were not `name=value` with a value Telltale reads (counted, passed over).
    public private(set) var unreadable = 0

    /// The longest line read; a longer one is cut there and counted.
    public static let longestLine = 1024

    public init() {}

    /// What is sent once connected: the values watched.
    public static let watch =
        #"watch={"ap.enabled": true, "ap.mode": true, "ap.heading_command": true, "ap.heading": 1}"# + "\n"

    /// Connected again: what was known is not any more until pypilot says it.
    public mutating func reset() {
        enabled = nil
        mode = nil
        headingCommand = nil
    }

    /// One line from pypilot (without its newline); true when its state, mode or target changed.
    @discardableResult
    public mutating func received(_ line: String, at time: Double) -> Bool {
        let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            unreadable += 1
            return false
        }
        lastHeard = time
        let name = String(parts[0])
        let value = String(parts[1]).trimmingSpaces
        switch name {
        case "ap.enabled":
            guard value == "true" || value == "false" else {
                unreadable += 1
                return false
            }
            let before = enabled
            enabled = value == "true"
            return before != enabled
        case "ap.mode":
            guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\""), value.count <= 32 else {
                unreadable += 1
                return false
            }
            let before = mode
            mode = String(value.dropFirst().dropLast())
            return before != mode
        case "ap.heading_command":
            guard let degrees = Double(value), degrees.isFinite, degrees >= -180, degrees <= 360 else {
                unreadable += 1
                return false
            }
            let before = headingCommand
            headingCommand = degrees
            return before != headingCommand
        default:
            return false
        }
    }

    /// Signal K's words for what pypilot says: `auto` or `standby`; its modes as the API names them (`nav` is
    /// `route`; `true wind` is a wind mode too); the target in radians (a heading 0 to 2π, or a wind angle ±π).
    public var state: String? { enabled.map { $0 ? "auto" : "standby" } }
    public var apiMode: String? {
        switch mode {
        case "compass": "compass"
        case "gps": "gps"
        case "nav": "route"
        case "wind", "true wind": "wind"
        default: nil
        }
    }
    public var target: Double? {
        guard let degrees = headingCommand else { return nil }
        if apiMode == "wind" { return (degrees > 180 ? degrees - 360 : degrees) * Double.pi / 180 }
        return (degrees < 0 ? degrees + 360 : degrees) * Double.pi / 180
    }

    /// The lines that carry `order` to pypilot, or why it cannot take it.
    public func lines(_ order: PilotCommander.Order) -> Result<[String], PilotCommander.Refusal> {
        func degrees(_ radians: Double) -> String { Self.decimal(radians * 180 / Double.pi) }
        switch order {
        case .standby:
            return .success(["ap.enabled=false\n"])
        case .engage(let name):
            let mode: String
            switch name {
            case "compass": mode = "compass"
            case "gps": mode = "gps"
            case "route": mode = "nav"
            case "wind": mode = "wind"
            default: return .failure(.cannot("pypilot has no mode \(name)"))
            }
            return .success(["ap.mode=\"\(mode)\"\n", "ap.enabled=true\n"])
        case .heading(let radians):
            guard apiMode != "wind" else {
                return .failure(.cannot("pypilot is in a wind mode: its target is a wind angle"))
            }
            let direction = radians.truncatingRemainder(dividingBy: 2 * Double.pi)
            return .success(["ap.heading_command=\(degrees(direction < 0 ? direction + 2 * Double.pi : direction))\n"])
        case .windAngle(let radians):
            guard apiMode == "wind" else {
                return .failure(.cannot("pypilot is not in a wind mode: its target is a heading"))
            }
            return .success(["ap.heading_command=\(degrees(radians))\n"])
        case .turn(let change):
            guard let target else { return .failure(.cannot("pypilot's heading command is not known yet")) }
            if apiMode == "wind" { return lines(.windAngle(target + change)) }
            return lines(.heading(target + change))
        }
    }

    /// A number in tenths, as pypilot keeps it (`123.4`, `-35.0`).
    static func decimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths < 0 ? -tenths : tenths
        return sign + String(magnitude / 10) + "." + String(magnitude % 10)
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\r" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\r" { text = text.dropLast() }
        return String(text)
    }
}
