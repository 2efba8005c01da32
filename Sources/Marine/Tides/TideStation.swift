/// A tide or current station ready to predict: what a sailor is told about it (name, place, kind, datum, units,
/// directions, its reference) and its constants, held whole (a station read from a file needs the file no more).
public struct TideStation: Sendable {
    public enum Kind: String, Sendable {
        case tide, current
    }

    public let name: String
    public let kind: Kind
    public let latitude: Double
    public let longitude: Double
    public let timeZone: String
    public let country: String
    public let stationID: String
    /// The datum heights are above (a tide station's reference's: "Mean Lower Low Water" for NOAA's); "" for a
    /// current.
    public let datum: String
    /// The units the file keeps the station in (`feet`, `meters`, `knots`, `knots^2`); predictions come in metres
    /// and knots whatever they are.
    public let fileUnits: String
    /// Degrees true, for a current station that has them.
    public let floodDirection: Double?
    public let ebbDirection: Double?
    /// The reference station's name, for a subordinate station.
    public let reference: String?
    /// Metres below the surface, for a current station measured at a depth (NOAA's bins: "(Depth 115.6ft)").
    public var depth: Double? { Self.depth(inName: name) }
    /// Where the station came from: its file's name, and the record's number in it.
    public let file: String
    public let number: Int
    let model: Model
    /// Native units to metres (feet: 0.3048) or knots (1).
    let scale: Double

    enum Model: Sendable {
        case harmonic(TideHarmonics)
        case subordinate(TideHarmonics, SubordinateCurve.Offsets)
    }

    /// Why a record cannot be predicted from.
    public enum Unusable: Error, Sendable, CustomStringConvertible {
        case noReference(String)
        case unknownUnits(String, String)

        public var description: String {
            switch self {
            case .noReference(let name): "\(name): its reference station is not a reference station"
            case .unknownUnits(let name, let units): "\(name): units \(units)"
            }
        }
    }

    /// The station of `record`, with its reference's record when it is subordinate, from `file` (named `fileName`).
    public init(
        _ record: TideRecord, reference: TideRecord?, file: HarmonicsFile, fileName: String
    ) throws(Unusable) {
        let base = reference ?? record
        guard case .reference(let constants) = base.kind else { throw .noReference(record.name) }
        let units = base.levelUnits
        let metres: Double
        switch units {
        case "feet": metres = 0.3048
        case "meters", "knots", "knots^2": metres = 1
        default: throw .unknownUnits(record.name, units)
        }
        let isCurrent = units.hasPrefix("knots")
        name = record.name
        kind = isCurrent ? .current : .tide
        latitude = record.latitude
        longitude = record.longitude
        timeZone = record.timeZone
        country = record.country
        stationID = record.stationID
        datum = isCurrent ? "" : constants.datum
        fileUnits = units
        floodDirection = record.floodDirection.map { Double($0) }
        ebbDirection = record.ebbDirection.map { Double($0) }
        self.reference = reference?.name
        self.file = fileName
        number = record.number
        scale = isCurrent ? 1 : metres
        guard case .subordinate(_, let offsets) = record.kind else {
            model = .harmonic(TideHarmonics(constants, units: units, file: file))
            return
        }
        model = Self.subordinate(
            offsets, subordinateUnits: record.levelUnits, constants: constants, units: units, file: file)
    }

    /// A station of one's own, from constants given by hand (metres for a tide, knots for a current), not a file.
    public init(
        name: String, kind: Kind, latitude: Double, longitude: Double, harmonics: TideHarmonics, datum: String = "",
        floodDirection: Double? = nil, ebbDirection: Double? = nil
    ) {
        self.name = name
        self.kind = kind
        self.latitude = latitude
        self.longitude = longitude
        timeZone = ":UTC"
        country = ""
        stationID = ""
        self.datum = datum
        fileUnits = kind == .tide ? "meters" : "knots"
        self.floodDirection = floodDirection
        self.ebbDirection = ebbDirection
        reference = nil
        file = ""
        number = -1
        model = .harmonic(harmonics)
        scale = 1
    }

    /// A subordinate's offsets folded into its reference's constants when they are simple (the same at high and
    /// low water, slacks not moved apart; a hydraulic current's multiplier 1), as XTide does; kept apart otherwise.
    static func subordinate(
        _ offsets: TideRecord.Offsets, subordinateUnits: String, constants: TideRecord.Constants, units: String,
        file: HarmonicsFile
    ) -> Model {
        // Level adds in the subordinate's own length units, moved to the reference's (a current's are knots).
        var add = 1.0
        if subordinateUnits == "feet" && units == "meters" { add = 0.3048 }
        if subordinateUnits == "meters" && units == "feet" { add = 1 / 0.3048 }
        let high = TideRecord.hours(offsets.maxTimeAdd)
        let low = TideRecord.hours(offsets.minTimeAdd)
        let flood = offsets.floodBegins.map { TideRecord.hours($0) }
        let ebb = offsets.ebbBegins.map { TideRecord.hours($0) }
        let sameSides =
            offsets.maxTimeAdd == offsets.minTimeAdd && offsets.maxLevelAdd == offsets.minLevelAdd
            && offsets.maxLevelMultiply == offsets.minLevelMultiply
        let slacksKept = [flood, ebb].allSatisfy { $0 == nil || ($0 == high && offsets.maxLevelAdd == 0) }
        let hydraulicScaled = units == "knots^2" && offsets.maxLevelMultiply != 1
        if sameSides && slacksKept && !hydraulicScaled {
            return .harmonic(
                TideHarmonics(
                    constants, units: units, file: file, timeAdd: high, levelAdd: offsets.maxLevelAdd * add,
                    multiply: offsets.maxLevelMultiply))
        }
        let mapped = SubordinateCurve.Offsets(
            highTime: high * 3600, highAdd: offsets.maxLevelAdd * add, highMultiply: offsets.maxLevelMultiply,
            lowTime: low * 3600, lowAdd: offsets.minLevelAdd * add, lowMultiply: offsets.minLevelMultiply,
            floodBegins: flood.map { $0 * 3600 }, ebbBegins: ebb.map { $0 * 3600 })
        return .subordinate(TideHarmonics(constants, units: units, file: file), mapped)
    }

    /// A curve to predict with (it keeps a year's coefficients and its reference's events as it goes: one for each
    /// run of predictions).
    public func curve() -> TideCurve { TideCurve(self) }

    /// The depth a name gives, "(Depth 115.6ft)" or "(Depth 12m)", in metres.
    static func depth(inName name: String) -> Double? {
        let bytes = Array(name.utf8)
        let key = Array("(Depth ".utf8)
        guard bytes.count > key.count else { return nil }
        for start in 0...(bytes.count - key.count) where Array(bytes[start..<(start + key.count)]) == key {
            var index = start + key.count
            var digits: [UInt8] = []
            while index < bytes.count, (bytes[index] >= 0x30 && bytes[index] <= 0x39) || bytes[index] == 0x2E {
                digits.append(bytes[index])
                index += 1
            }
            guard let value = Double(String(decoding: digits, as: UTF8.self)) else { return nil }
            let feet = index + 1 < bytes.count && bytes[index] == 0x66 && bytes[index + 1] == 0x74  // "ft"
            return feet ? value * 0.3048 : value
        }
        return nil
    }

    /// Current stations with, of several at one place (within 50 m: a tidal current's bins at several depths), the
    /// shallowest alone: the stream a boat sails in, counted once.
    public static func surfaceOnly(_ stations: [TideStation]) -> [TideStation] {
        var kept: [TideStation] = []
        for station in stations {
            let here = GeoPoint(latitude: station.latitude, longitude: station.longitude)
            if let index = kept.firstIndex(where: {
                Geodesic.wgs84.inverse(here, GeoPoint(latitude: $0.latitude, longitude: $0.longitude)).distance < 50
            }) {
                if (station.depth ?? 0) < (kept[index].depth ?? 0) { kept[index] = station }
            } else {
                kept.append(station)
            }
        }
        return kept
    }

    /// The direction the stream sets with `speed` knots (flood positive), degrees true; nil when the file gives none.
    public func direction(ofSpeed speed: Double) -> Double? { speed >= 0 ? floodDirection : ebbDirection }
}

/// Predictions at one station: the level (metres above its datum) or the current (knots, flood positive) at any
/// instant, and its events between two.
public struct TideCurve: Sendable {
    public let station: TideStation
    private var harmonic: HarmonicCurve?
    private var subordinate: SubordinateCurve?

    init(_ station: TideStation) {
        self.station = station
        switch station.model {
        case .harmonic(let harmonics): harmonic = HarmonicCurve(harmonics)
        case .subordinate(let harmonics, let offsets):
            subordinate = SubordinateCurve(
                reference: HarmonicCurve(harmonics), offsets: offsets, isCurrent: station.kind == .current)
        }
    }

    /// Metres above the datum, or knots (flood positive), at `time` (UNIX seconds).
    public mutating func value(at time: Double) -> Double {
        if harmonic != nil { return harmonic!.level(time) * station.scale }
        return subordinate!.level(time) * station.scale
    }

    /// High and low waters, or floods, ebbs and slacks, from `from` up to `to`, in time order.
    public mutating func events(from: Double, to: Double) -> [TideEvent] {
        guard to > from else { return [] }
        if harmonic != nil {
            return harmonic!.events(from: from, to: to, isCurrent: station.kind == .current, scale: station.scale)
        }
        return subordinate!.events(from: from, to: to, scale: station.scale)
    }
}
