import Engine
import Marine
import NMEA

/// The boat's data as Signal K holds it: per path, the latest value from each source with its timestamp, in SI
/// units. Pure and deterministic: sentences and engine values come in with their times, updates (delta values) come
/// out in the order they were made, so a replay gives the same deltas every time.
///
/// Values passed through from an input carry the input's name and talker as their source (`gps.GP`); values the
/// engine derived carry `telltale.computed`. A value that stops arriving is withdrawn when its path's timeout
/// passes (a `null` update); a derived value the engine no longer has is withdrawn at once.
public struct SignalKModel: Sendable {
    public static let computedSource = "telltale.computed"
    /// The source of wind made from the forecast on board (no anemometer heard), and of the forecast itself.
    public static let forecastSource = "telltale.forecast"
    public static let version = "1.7.0"

    public struct Entry: Sendable {
        public var source: String
        public var value: SignalKValue
        public var timestamp: String
        /// Engine seconds of the reading (for its timeout).
        public var time: Double
    }

    /// One value of a delta: `value` is `.null` when the path's value from `source` is withdrawn.
    public struct Update: Hashable, Sendable {
        public var path: String
        public var source: String
        public var timestamp: String
        public var value: SignalKValue
    }

    /// `vessels.<urn>`: the context of every delta.
    public let context: String
    public let urn: String
    public let name: String?
    /// Path to its entries, one per source.
    public private(set) var entries: [String: [Entry]] = [:]
    /// Input name to the talkers seen from it (the `sources` branch of the full model).
    public private(set) var sources: [String: [String]] = [:]
    var pending: [Update] = []
    /// True wind over the last hour and heel over the last minutes, sampled at each ``update``.
    public private(set) var history = History()
    /// Sources by path, most preferred first (`[web.source_priority]`); see ``preferredSource(_:)``.
    public var sourcePriority: [String: [String]] = [:]
    /// The other vessels, aids to navigation and beacons heard on AIS, each under its own context.
    public private(set) var traffic = SignalKTraffic()
    /// The engine's track, as last reported (served at `vessels/self/track`); its clock is the engine's.
    public var track = TrackLog(hours: 0, capacity: 16)
    /// UNIX seconds less engine seconds when the track was last reported.
    public var trackClockOffset = 0.0
    /// The route the engine follows (its waypoints, as the chart draws them), as last reported.
    public var route: Route?
    /// Engine seconds from which the track is the anchor's swing, while an anchor is set.
    public var swingFrom: Double?
    /// The weather page's last report (meteogram, route ahead, barograph, forecasts on board).
    public var weather: WeatherReport?

    /// Takes the engine's AIS table (when its report carries it).
    public mutating func take(traffic targets: [AISTarget], at time: Double, unixTime: Double) {
        traffic.take(targets, at: time, unixTime: unixTime)
    }

    /// The forecast at the boat (``SignalKTraffic/forecast(_:at:unixTime:)``).
    public mutating func take(forecast sample: ForecastSample?, at point: GeoPoint?, unixTime: Double) {
        traffic.forecast(sample, at: point, unixTime: unixTime)
    }

    /// The AIS deltas made since the last call, each one station's (its context and the delta's text).
    public mutating func takeTrafficDeltas() -> [SignalKTraffic.Delta] { traffic.takeDeltas() }

    /// - Parameter urn: `urn:mrn:signalk:uuid:…` or `urn:mrn:imo:mmsi:…`, the boat's stable identity.
    public init(urn: String, name: String? = nil) {
        self.urn = urn
        self.name = name
        context = "vessels." + urn
    }

    /// A version 4 UUID URN made from `seed` (the same seed, the same URN): a boat's identity stays the same from
    /// one start to the next without a file to keep it in.
    public static func urn(seed: String) -> String {
        var a: UInt64 = 0xCBF2_9CE4_8422_2325
        var b: UInt64 = 0x8422_2325_CBF2_9CE4
        for byte in seed.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 ^ (a >> 29)
        }
        var bytes: [UInt8] = []
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: a >> UInt64(shift)))
        }
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: b >> UInt64(shift)))
        }
        return "urn:mrn:signalk:uuid:" + uuid(bytes)
    }

    /// 16 bytes as a version 4 UUID (`6b0e776f-811a-4b35-980e-b93405371bc5`): the version and variant bits set.
    static func uuid(_ bytes: [UInt8]) -> String {
        var bytes = Array(bytes.prefix(16))
        while bytes.count < 16 { bytes.append(0) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let text = hex(bytes)
        var out = ""
        for (index, character) in text.enumerated() {
            if [8, 12, 16, 20].contains(index) { out += "-" }
            out.append(character)
        }
        return out
    }

    /// Bytes as lower-case hex digits.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The one source whose value stands for `path` (the REST model's `value`, the only one a stream sends unless
    /// it asks `sourcePolicy=all`, as signalk-server's `preferred` policy): the first of the path's configured
    /// priority that has a value, else the engine's own (`telltale.computed`: damped, corrected, one source chosen by
    /// the engine's own selection), else the source heard first. True heading is the exception: the compass's own
    /// (HDT, or HDG with variation) comes at its rate, 10 Hz, where the engine's is the same compass at the update
    /// rate, so the instrument's is preferred there. Nil when the path has no value.
    public func preferredSource(_ path: String) -> String? {
        guard let list = entries[path], let first = list.first else { return nil }
        if let order = sourcePriority[path] {
            for source in order where list.contains(where: { $0.source == source }) { return source }
        }
        if Self.instrumentFirst.contains(path), let own = list.first(where: { $0.source != Self.computedSource }) {
            return own.source
        }
        if list.contains(where: { $0.source == Self.computedSource }) { return Self.computedSource }
        return first.source
    }

    /// Paths whose instrument value is preferred to the engine's by default (see ``preferredSource(_:)``).
    static let instrumentFirst: Set<String> = ["navigation.headingTrue"]

    /// Whether an update goes to a stream that wants one value a path: the preferred source's, or a withdrawal (a
    /// value the app showed must not look current once it is gone; the next source's value follows at its rate).
    public func isPreferred(_ update: Update) -> Bool {
        guard update.value != .null, let preferred = preferredSource(update.path) else { return true }
        return update.source == preferred
    }

    /// The updates made since the last call, in order.
    public mutating func takeUpdates() -> [Update] {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    public var hasUpdates: Bool { !pending.isEmpty }

    /// The heel alarms' thresholds (degrees), shown with the heel history.
    public mutating func setHeelAlarm(over: Double?, under: Double?) {
        history.overHeel = over
        history.underHeel = under
    }

    /// Samples the history (``update`` does, after the engine's values are in).
    mutating func recordHistory(at time: Double) {
        let speed = current("environment.wind.speedTrue")
        let direction = current("environment.wind.directionTrue")
        let roll = currentRoll
        history.record(
            trueWindSpeed: speed, direction: direction, heel: roll, traces: History.tracePaths.map { current($0) },
            at: time)
    }

    /// Withdraws the values passed through from inputs that have not been renewed within their path's timeout.
    public mutating func expire(at time: Double, unixTime: Double) {
        // What has expired is found first and only that is put in order (by path, then as the sources came): the
        // paths were sorted every second for the few, mostly none, that expire.
        var expired: [(path: String, place: Int, source: String)] = []
        for (path, list) in entries {
            let timeout = SignalKPaths.info(path).timeout
            for (place, entry) in list.enumerated()
            where entry.source != Self.computedSource && time - entry.time > timeout {
                expired.append((path, place, entry.source))
            }
        }
        guard !expired.isEmpty else { return }
        expired.sort { $0.path != $1.path ? $0.path < $1.path : $0.place < $1.place }
        let stamp = SignalKTime.text(unixTime: unixTime)
        for item in expired { withdraw(item.path, source: item.source, timestamp: stamp) }
    }

    mutating func set(_ path: String, _ value: SignalKValue, source: String, time: Double, timestamp: String) {
        let entry = Entry(source: source, value: value, timestamp: timestamp, time: time)
        if let index = entries[path]?.firstIndex(where: { $0.source == source }) {
            entries[path]![index] = entry
        } else {
            entries[path, default: []].append(entry)
        }
        pending.append(Update(path: path, source: source, timestamp: timestamp, value: value))
    }

    mutating func withdraw(_ path: String, source: String, timestamp: String) {
        guard let index = entries[path]?.firstIndex(where: { $0.source == source }) else { return }
        entries[path]!.remove(at: index)
        if entries[path]!.isEmpty { entries[path] = nil }
        pending.append(Update(path: path, source: source, timestamp: timestamp, value: .null))
    }

    mutating func noteSource(input: String, talker: String) {
        if sources[input]?.contains(talker) == true { return }
        sources[input, default: []].append(talker)
    }

    /// A name Signal K accepts in a `$source` (letters, digits, `-`, `_`, `.`); anything else becomes `_`.
    static func sourceName(_ text: String) -> String {
        let bytes = text.utf8.map { byte -> UInt8 in
            let ok =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
            return ok ? byte : UInt8(ascii: "_")
        }
        return bytes.isEmpty ? "_" : String(decoding: bytes, as: UTF8.self)
    }
}
