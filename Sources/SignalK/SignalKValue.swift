import Marine

/// A Signal K value in SI units: radians, metres per second, metres, Kelvin, ratios.
///
/// Numbers are written with six decimals at most (a millionth of a radian is 0.00006 degrees; of a metre, a
/// micrometre), positions with seven (about a centimetre): far finer than any instrument, and the same digits on
/// every processor, so a replay's delta stream is byte-identical on x86 and ARM.
public enum SignalKValue: Hashable, Sendable {
    case number(Double)
    /// Degrees (Signal K keeps latitude and longitude in degrees).
    case position(latitude: Double, longitude: Double)
    /// Radians: roll positive starboard down, pitch positive bow up.
    case attitude(roll: Double?, pitch: Double?, yaw: Double?)
    case text(String)
    /// An alarm: `state` is `normal`, `alert`, `warn`, `alarm` or `emergency`.
    case notification(state: String, method: [String], message: String)
    /// A point of the Course API (`navigation.course.nextPoint`, `previousPoint`): `type` is `RoutePoint`,
    /// `Location` or `VesselPosition`; degrees.
    case coursePoint(type: String, latitude: Double, longitude: Double)
    /// The route followed (`navigation.course.activeRoute`): the destination's index among its points.
    case activeRoute(href: String, name: String, pointIndex: Int, pointTotal: Int, reverse: Bool)
    /// A value gone stale: sent as `null`, never left looking current.
    case null
    case bool(Bool)
    /// An object of named values, in order (an AIS vessel's `design.length`, `design.aisShipType`).
    indirect case object(keys: [String], values: [SignalKValue])

    /// An object from its members in order.
    public static func object(_ members: [(String, SignalKValue)]) -> SignalKValue {
        .object(keys: members.map { $0.0 }, values: members.map { $0.1 })
    }

    /// Writes the value under `key` (or as an array element).
    public func write(_ key: String?, to json: inout JSONWriter) {
        switch self {
        case .number(let value):
            Self.number(key, value, 6, &json)
        case .position(let latitude, let longitude):
            json.beginObject(key)
            Self.number("latitude", latitude, 7, &json)
            Self.number("longitude", longitude, 7, &json)
            json.endObject()
        case .attitude(let roll, let pitch, let yaw):
            json.beginObject(key)
            if let roll { Self.number("roll", roll, 6, &json) }
            if let pitch { Self.number("pitch", pitch, 6, &json) }
            if let yaw { Self.number("yaw", yaw, 6, &json) }
            json.endObject()
        case .text(let text):
            json.value(key, text)
        case .notification(let state, let method, let message):
            json.beginObject(key)
            json.value("state", state)
            json.beginArray("method")
            for item in method { json.value(nil, item) }
            json.endArray()
            json.value("message", message)
            json.endObject()
        case .coursePoint(let type, let latitude, let longitude):
            json.beginObject(key)
            json.value("type", type)
            SignalKValue.position(latitude: latitude, longitude: longitude).write("position", to: &json)
            json.endObject()
        case .activeRoute(let href, let name, let pointIndex, let pointTotal, let reverse):
            json.beginObject(key)
            json.value("href", href)
            json.value("name", name)
            json.value("pointIndex", pointIndex)
            json.value("pointTotal", pointTotal)
            json.raw("reverse", reverse ? "true" : "false")
            json.endObject()
        case .null:
            json.null(key)
        case .bool(let value):
            json.raw(key, value ? "true" : "false")
        case .object(let keys, let values):
            json.beginObject(key)
            for (name, value) in zip(keys, values) { value.write(name, to: &json) }
            json.endObject()
        }
    }
}

extension SignalKValue {
    /// A number with at most `decimals` decimals, trailing zeros left out; `null` when not finite.
    public static func number(_ key: String?, _ value: Double, _ decimals: Int, _ json: inout JSONWriter) {
        guard value.isFinite, abs(value) < 1e12 else { return json.null(key) }
        var text = FixedDecimal.text(value, decimals: decimals)
        if text.contains(".") {
            while text.last == "0" { text.removeLast() }
            if text.last == "." { text.removeLast() }
        }
        if text == "-0" { text = "0" }
        json.raw(key, text)
    }
}
