import Engine
import Marine
import NMEA

/// The other vessels, aids to navigation and beacons heard on AIS, as Signal K keeps them (signalk-server's
/// nmea0183-signalk VDM hook): each under its own context by its MMSI (`vessels.urn:mrn:imo:mmsi:235000001`,
/// `atons.`, `sar.`, `aircraft.`, `shore.basestations.`), its values in SI units with `$source` `telltale.ais`.
///
/// Taken from the engine's report whenever its table changed; each station that changed goes out as one delta of
/// its own context (``takeDeltas()``), and the REST model lists them beside the own vessel. A station the engine
/// forgot is dropped here too.
public struct SignalKTraffic: Sendable {
    public static let source = "telltale.ais"

    public struct Station: Sendable {
        public var mmsi: UInt32
        public var context: String
        /// Path (`""` for the root's `name` and `mmsi`) and value, in a fixed order.
        public var values: [(path: String, value: SignalKValue)]
        public var timestamp: String
        var heard: Double
        public internal(set) var approach: ClosestApproach?
        /// `telltale.ais`, or `telltale.forecast` for the forecast at the boat.
        public var source = SignalKTraffic.source
    }

    /// The forecast at the boat, under a context of its own as Signal K keeps forecasts and weather stations
    /// (`meteo.`), apart from what the boat measures.
    public static let forecastContext = "meteo.forecast"

    public private(set) var stations: [Station] = []
    private var pending: [Delta] = []

    /// One station's delta: its context, the paths it carries, its text.
    public typealias Delta = (context: String, paths: [String], text: String)

    public init() {}

    /// The context a station's MMSI puts it under.
    public static func context(_ target: AISTarget) -> String {
        let urn = "urn:mrn:imo:mmsi:\(target.mmsi)"
        switch target.station {
        case .aidToNavigation: return "atons." + urn
        case .searchAndRescueTransponder, .manOverboard, .epirb: return "sar." + urn
        case .searchAndRescueAircraft: return "aircraft." + urn
        case .baseStation: return "shore.basestations." + urn
        case .vessel: return "vessels." + urn
        }
    }

    /// Takes the engine's table: the stations heard or judged anew become deltas, the forgotten ones go.
    public mutating func take(_ targets: [AISTarget], at time: Double, unixTime: Double) {
        var kept: [Station] = stations.filter { $0.context == Self.forecastContext }
        kept.reserveCapacity(targets.count + 1)
        for target in targets {
            let old = stations.first { $0.mmsi == target.mmsi }
            if let old, old.heard == target.lastHeard, old.approach == target.approach {
                kept.append(old)
                continue
            }
            let stamp = SignalKTime.text(unixTime: unixTime - (time - target.lastHeard))
            let station = Station(
                mmsi: target.mmsi, context: Self.context(target), values: Self.values(target), timestamp: stamp,
                heard: target.lastHeard, approach: target.approach)
            pending.append((station.context, station.values.map { $0.path }, Self.delta(station)))
            kept.append(station)
        }
        stations = kept
    }

    /// The forecast at the boat now (`point`), from the forecast grid `label`; nil takes it away (no forecast covers
    /// the boat). A delta goes out when what it says changes.
    public mutating func forecast(_ sample: ForecastSample?, at point: GeoPoint?, unixTime: Double) {
        let index = stations.firstIndex { $0.context == Self.forecastContext }
        guard let sample, let point else {
            if let index { stations.remove(at: index) }
            return
        }
        func number(_ value: Double?) -> SignalKValue? { value.map(SignalKValue.number) }
        var values: [(path: String, value: SignalKValue)] = [
            ("", .object([("name", .text("Forecast at the boat"))])),
            ("navigation.position", .position(latitude: point.latitude, longitude: point.longitude)),
            ("forecast.time", .text(SignalKTime.text(unixTime: sample.time))),
            ("forecast.runTime", .text(SignalKTime.text(unixTime: sample.runTime))),
        ]
        let optional: [(String, SignalKValue?)] = [
            ("environment.wind.speedTrue", number(sample.windSpeed)),
            ("environment.wind.directionTrue", sample.windDirection.map { .number(Angle.radians($0)) }),
            ("environment.wind.gust", number(sample.gust)),
            ("environment.outside.pressure", number(sample.pressure)),
            // mm/h as Signal K's SI: metres a second.
            ("environment.outside.precipitationRate", sample.precipitation.map { .number($0 / 3_600_000) }),
            ("environment.outside.cloudCover", sample.cloud.map { .number($0 / 100) }),
        ]
        for (path, value) in optional { if let value { values.append((path, value)) } }
        var station = Station(
            mmsi: 0, context: Self.forecastContext, values: values, timestamp: SignalKTime.text(unixTime: unixTime),
            heard: sample.time, approach: nil)
        station.source = SignalKModel.forecastSource
        if let index {
            // The same forecast for the same second and place: nothing new to say.
            if stations[index].heard == sample.time, stations[index].values.count == values.count { return }
            stations[index] = station
        } else {
            stations.append(station)
        }
        pending.append((station.context, values.map { $0.path }, Self.delta(station)))
    }

    /// The deltas made since the last call, each one station's.
    public mutating func takeDeltas() -> [Delta] {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    static func values(_ t: AISTarget) -> [(path: String, value: SignalKValue)] {
        var out: [(path: String, value: SignalKValue)] = [("", .object([("mmsi", .text(String(t.mmsi)))]))]
        if let name = t.name { out.append(("", .object([("name", .text(name))]))) }
        if let p = t.position {
            out.append(("navigation.position", .position(latitude: p.latitude, longitude: p.longitude)))
        }
        if let c = t.courseOverGround { out.append(("navigation.courseOverGroundTrue", .number(Angle.radians(c)))) }
        if let s = t.speedOverGround { out.append(("navigation.speedOverGround", .number(s))) }
        if let h = t.heading { out.append(("navigation.headingTrue", .number(Angle.radians(h)))) }
        if let r = t.rateOfTurn { out.append(("navigation.rateOfTurn", .number(Angle.radians(r) / 60))) }
        if let status = t.navigationStatus, let state = state(status) { out.append(("navigation.state", .text(state))) }
        if let callsign = t.callsign { out.append(("communication.callsignVhf", .text(callsign))) }
        if let imo = t.imo { out.append(("registrations.imo", .text("IMO \(imo)"))) }
        if let length = t.length { out.append(("design.length", .object([("overall", .number(Double(length)))]))) }
        if let beam = t.beam { out.append(("design.beam", .number(Double(beam)))) }
        if let draught = t.draught { out.append(("design.draft", .object([("current", .number(draught))]))) }
        if let type = t.shipType, let name = shipType(type) {
            out.append(("design.aisShipType", .object([("id", .number(Double(type))), ("name", .text(name))])))
        }
        if let destination = t.destination { out.append(("navigation.destination.commonName", .text(destination))) }
        if let aid = t.aid {
            out.append(("atonType", .object([("id", .number(Double(aid.type)))])))
            out.append(("virtual", .bool(aid.isVirtual)))
            if let off = aid.isOffPosition { out.append(("offPosition", .bool(off))) }
        }
        let kind =
            switch t.station {
            case .aidToNavigation: "ATON"
            case .baseStation: "BASE"
            case .searchAndRescueTransponder, .manOverboard, .epirb: "SART"
            default: t.isClassB ? "B" : "A"
            }
        out.append(("sensors.ais.class", .text(kind)))
        if let a = t.approach {
            out.append(
                (
                    "navigation.closestApproach",
                    .object([("distance", .number(a.distance)), ("timeTo", .number(a.time))])
                ))
        }
        return out
    }

    /// ITU-R M.1371 navigational status as Signal K's `navigation.state` words.
    static func state(_ status: Int) -> String? {
        switch status {
        case 0: "motoring"
        case 1: "anchored"
        case 2: "not under command"
        case 3: "restricted manouverability"
        case 4: "constrained by draft"
        case 5: "moored"
        case 6: "aground"
        case 7: "fishing"
        case 8: "sailing"
        case 14: "ais-sart"
        default: nil
        }
    }

    /// ITU-R M.1371 table 53 in the words of the Signal K specification's `design.aisShipType` (its schema lists the
    /// pairs it allows); nil for a number it does not list (0–19, 38, 39, 100 and over), which is then left out.
    static func shipType(_ id: Int) -> String? {
        let hazard = ["A", "B", "C", "D"]
        switch id {
        case 20, 25...28: return "Wing In Ground"
        case 21...24: return "Wing In Ground hazard cat " + hazard[id - 21]
        case 29: return "Wing In Ground (no other information)"
        case 30: return "Fishing"
        case 31: return "Towing"
        case 32: return "Towing exceeds 200m or wider than 25m"
        case 33: return "Engaged in dredging or underwater operations"
        case 34: return "Engaged in diving operations"
        case 35: return "Engaged in military operations"
        case 36: return "Sailing"
        case 37: return "Pleasure"
        case 40...49, 60...99:
            let base: String
            switch id / 10 {
            case 4: base = "High speed craft"
            case 6: base = "Passenger ship"
            case 7: base = "Cargo ship"
            case 8: base = "Tanker"
            default: base = "Other"
            }
            switch id % 10 {
            case 1 where id == 61: return base + " hazard cat A"
            case 1: return base + " carrying dangerous goods"
            case 2...4: return base + " hazard cat " + hazard[id % 10 - 1]
            case 9: return base + " (no additional information)"
            default: return base
            }
        case 50...59:
            return [
                "Pilot vessel", "SAR", "Tug", "Port tender", "Anti-pollution", "Law enforcement", "Spare", "Spare #2",
                "Medical", "RR Resolution No.18",
            ][id - 50]
        default: return nil
        }
    }

    static func delta(_ station: Station) -> String {
        SignalKModel.delta(
            context: station.context, source: station.source, timestamp: station.timestamp, values: station.values)
    }

    /// A station as the REST model gives it: `mmsi` and `name` at its root, each path a branch down to its value
    /// with `$source` and `timestamp`.
    func write(_ station: Station, _ key: String?, below prefix: [String] = [], to json: inout JSONWriter) -> Bool {
        let dotted = prefix.joined(separator: ".")
        if !prefix.isEmpty, let leaf = station.values.first(where: { $0.path == dotted }) {
            writeLeaf(leaf.value, station, key, to: &json)
            return true
        }
        let inside = station.values.filter {
            !$0.path.isEmpty && (dotted.isEmpty || $0.path.hasPrefix(dotted + "."))
        }
        guard prefix.isEmpty || !inside.isEmpty else { return false }
        json.beginObject(key)
        if prefix.isEmpty {
            // The root's `mmsi` and `name`, plain as signalk-server keeps them (a forecast has only a name).
            for (path, value) in station.values where path.isEmpty {
                if case .object(let keys, let values) = value {
                    for (name, member) in zip(keys, values) { member.write(name, to: &json) }
                }
            }
        }
        let items = inside.map { item -> ([String], SignalKValue) in
            (Array(item.path.split(separator: ".").map(String.init).dropFirst(prefix.count)), item.value)
        }
        writeBranch(items, station, to: &json)
        json.endObject()
        return true
    }

    private func writeBranch(_ items: [([String], SignalKValue)], _ station: Station, to json: inout JSONWriter) {
        var done: [String] = []
        for (components, _) in items {
            guard let head = components.first, !done.contains(head) else { continue }
            done.append(head)
            let below = items.filter { $0.0.first == head }
            if below.count == 1, below[0].0.count == 1 {
                writeLeaf(below[0].1, station, head, to: &json)
            } else {
                json.beginObject(head)
                writeBranch(below.map { (Array($0.0.dropFirst()), $0.1) }.filter { !$0.0.isEmpty }, station, to: &json)
                json.endObject()
            }
        }
    }

    private func writeLeaf(_ value: SignalKValue, _ station: Station, _ key: String?, to json: inout JSONWriter) {
        json.beginObject(key)
        value.write("value", to: &json)
        json.value("$source", station.source)
        json.value("timestamp", station.timestamp)
        json.endObject()
    }
}
