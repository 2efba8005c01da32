import Fleet
import Gateway
import Marine
import Platform
import SignalK

/// The boat watch on the shore (``BoatWatch``), fed with what the brokers hand over: each boat's positions, its
/// anchor's circle, its link (a goodbye before `online false` is a boat switched off, the last will alone one that
/// vanished) and its own alarms; once a second its silences and repeats. Each alert is said in the log and kept for
/// the panel (``open``), where the boat's owner and crew acknowledge it, and handed to ``deliver`` (``AlertPost``: by
/// e-mail and Web Push to the boat's people).
final class ShoreWatch {
    private(set) var watch: BoatWatch
    let log: Log
    /// Each alert raised, said again or cleared, to be delivered.
    var deliver: ((BoatWatch.Action) -> Void)?
    /// Boats whose last word on their link was a goodbye (their next `online false` is a clean stop).
    private var goodbye: Set<String> = []
    /// The anchor's last position and radius each boat sent (a radius alone arms nothing).
    private var circles: [String: (position: GeoPoint?, radius: Double?)] = [:]

    init(silentAfter: Double, log: Log) {
        var settings = BoatWatch.Settings()
        settings.silentAfter = silentAfter
        watch = BoatWatch(settings: settings)
        self.log = log
    }

    var open: [BoatWatch.Alert] { watch.open }

    /// A message from a broker at `time`.
    func take(topic: String, payload: [UInt8], at time: Double) {
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts[0] == "telltale", FleetModel.isValidBoat(parts[1]) else { return }
        let boat = parts[1]
        let rest = parts.dropFirst(2).joined(separator: ".")
        switch rest {
        case "goodbye":
            if payload.isEmpty { goodbye.remove(boat) } else { goodbye.insert(boat) }
        case "online":
            let up = payload == Array("true".utf8)
            say(watch.online(boat, up, clean: goodbye.contains(boat), at: time))
            if up { goodbye.remove(boat) }
        case "alarms":
            guard case .array(let items)? = JSONValue.parse(payload, maximumDepth: 4, maximumLength: 64 << 10) else {
                return
            }
            var active: [String: String] = [:]
            for item in items.prefix(32) {
                guard let path = item["path"]?.string, let state = item["state"]?.string,
                    state == "alarm" || state == "emergency"
                else { continue }
                active[path] = item["message"]?.string ?? path
            }
            say(watch.alarms(boat, active, at: time))
        case "commands", "commands.result", "history":
            say(watch.heard(boat, at: time))
        default:
            guard let json = JSONValue.parse(payload, maximumDepth: 6, maximumLength: 64 << 10),
                let value = json["value"]
            else { return }
            switch rest {
            case "navigation.position":
                guard let point = Self.point(value) else { return }
                say(watch.position(boat, point, at: time))
            case "navigation.anchor.position":
                circles[boat, default: (nil, nil)].position = Self.point(value)
                armed(boat, at: time)
            case "navigation.anchor.maxRadius":
                circles[boat, default: (nil, nil)].radius = value.number
                armed(boat, at: time)
            default:
                say(watch.heard(boat, at: time))
            }
        }
    }

    private func armed(_ boat: String, at time: Double) {
        let circle = circles[boat]
        say(watch.heard(boat, at: time))
        say(watch.anchor(boat, at: circle?.position, radius: circle?.radius, time: time))
    }

    static func point(_ value: JSONValue) -> GeoPoint? {
        guard let latitude = value["latitude"]?.number, let longitude = value["longitude"]?.number,
            abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// Once a second.
    func tick(at time: Double) { say(watch.tick(at: time)) }

    func acknowledge(_ boat: String, _ kind: BoatWatch.Kind) { watch.acknowledge(boat, kind) }

    /// Each alert said in the log (never held back: each is said once, then at its repeat interval).
    private func say(_ actions: [BoatWatch.Action]) {
        for action in actions {
            let (words, alert): (String, BoatWatch.Alert) =
                switch action {
                case .raise(let alert): ("", alert)
                case .again(let alert): ("again: ", alert)
                case .clear(let alert): ("", alert)
                }
            log(
                LogEvent(
                    .warning, "fleet.watch", "fleet: watch: " + words + alert.message,
                    [("device", "fleet"), ("boat", alert.boat)], throttled: false))
            deliver?(action)
        }
    }

    /// The open alerts a viewer may see, as the panel reads them.
    func json(seeing boats: Set<String>?, role: String?) -> String {
        var out = JSONWriter()
        out.beginObject()
        // Behind the door: the viewer's role (the panel then offers to log out).
        if let role { out.value("role", role) }
        out.beginArray("alerts")
        for alert in open where boats?.contains(alert.boat) ?? true {
            out.beginObject()
            out.value("boat", alert.boat)
            out.value("kind", Self.name(alert.kind))
            out.value("message", alert.message)
            out.value("time", SignalKTime.text(unixTime: alert.at))
            if let position = alert.position {
                out.value("latitude", position.latitude)
                out.value("longitude", position.longitude)
            }
            if let distance = alert.distance { out.value("distance", (distance * 10).rounded() / 10) }
            out.value("acknowledged", watch.acknowledged(alert.boat, alert.kind))
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.text
    }

    static func name(_ kind: BoatWatch.Kind) -> String {
        switch kind {
        case .anchorDrag: "anchor"
        case .silent: "silent"
        case .alarm(let path): path
        }
    }

    static func kind(_ name: String) -> BoatWatch.Kind {
        switch name {
        case "anchor": .anchorDrag
        case "silent": .silent
        default: .alarm(name)
        }
    }
}
