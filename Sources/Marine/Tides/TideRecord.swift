/// One station of a harmonics file as the file says it: where, what, in which units, and either its harmonic
/// constants (a reference station) or its offsets from another station (a subordinate station).
public struct TideRecord: Sendable {
    /// A reference station's constants: each constituent's amplitude (the station's units) and epoch (degrees, on
    /// the station's meridian), and the datum the heights are above.
    public struct Constants: Sendable {
        /// The mean level above the datum (or a current's mean, in knots).
        public let datumOffset: Double
        public let datum: String
        /// The meridian the epochs are on, ±HHMM (−1000: UTC−10).
        public let zoneOffset: Int
        /// (the constituent's index in the file, amplitude, epoch in degrees), amplitudes above zero only.
        public let constituents: [(index: Int, amplitude: Double, epoch: Double)]
    }

    /// A subordinate station's offsets from its reference: times ±HHMM, level adds in the station's units,
    /// multipliers (1 when the file has none); for currents, when flood and ebb begin (nil: not given).
    public struct Offsets: Sendable, Equatable {
        public let minTimeAdd: Int
        public let minLevelAdd: Double
        public let minLevelMultiply: Double
        public let maxTimeAdd: Int
        public let maxLevelAdd: Double
        public let maxLevelMultiply: Double
        public let floodBegins: Int?
        public let ebbBegins: Int?
    }

    public enum Kind: Sendable {
        case reference(Constants)
        case subordinate(reference: Int, Offsets)
    }

    /// The record's number in its file (a subordinate's reference is named by it).
    public let number: Int
    public let name: String
    public let latitude: Double
    public let longitude: Double
    /// The station's time zone, as the file has it (`:America/Los_Angeles`).
    public let timeZone: String
    public let country: String
    public let source: String
    public let notes: String
    public let stationID: String
    /// `feet`, `meters`, `knots`, `knots^2` (a hydraulic current).
    public let levelUnits: String
    /// A current's ebb and flood directions, degrees (true unless `directionUnits` says otherwise); nil if none.
    public let ebbDirection: Int?
    public let floodDirection: Int?
    public let directionUnits: String
    public let kind: Kind

    /// A current station, by XTide's rule: its units are knots, or (for a subordinate, whose units may be its
    /// reference's) its name says "Current".
    public var isCurrent: Bool { levelUnits.hasPrefix("knots") || name.hasSuffix(" Current") }

    /// The reference's record number when subordinate.
    public var referenceNumber: Int? {
        if case .subordinate(let reference, _) = kind { return reference }
        return nil
    }

    /// ±HHMM as hours (−130: an hour and a half earlier).
    public static func hours(_ hhmm: Int) -> Double {
        let magnitude = hhmm < 0 ? -hhmm : hhmm
        let value = Double(magnitude / 100) + Double(magnitude % 100) / 60
        return hhmm < 0 ? -value : value
    }
}
