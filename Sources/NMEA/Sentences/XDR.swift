/// XDR, transducer measurements: repeated quadruples of type, value, unit and name.
///
/// `$--XDR,a,x.x,a,c--c,a,x.x,a,c--c,...*hh`
/// type (`A` angular displacement, `C` temperature, `P` pressure, `G` generic, ...) · value · unit · name
///
/// Decoding is generic and forgiving: a field that cannot start a quadruple (the extra field some B&G firmware
/// inserts) is skipped and counted in ``skippedFields`` so the quadruples after it line up again.
/// Encoding drops trailing quadruples rather than go over 82 bytes.
public struct XDR: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x58, 0x44, 0x52)  // "XDR"

    public struct Measurement: Hashable, Sendable {
        /// Transducer type letter.
        public var type: UInt8
        public var value: Double?
        /// Unit letter (`D` degrees, `C` Celsius, `B` bar, ...).
        public var unit: UInt8?
        public var name: String?
        /// Decimals written when encoding; decoding sets it to the decimals received.
        public var decimals: Int

        public init(type: UInt8, value: Double?, unit: UInt8?, name: String?, decimals: Int = 1) {
            self.type = type
            self.value = value
            self.unit = unit
            self.name = name
            self.decimals = decimals
        }

        /// An angular displacement in degrees (`A,<value>,D,<name>`), the form used for heel and pitch.
        public static func angle(_ degrees: Double?, name: String, decimals: Int = 1) -> Measurement {
            Measurement(
                type: UInt8(ascii: "A"), value: degrees, unit: UInt8(ascii: "D"), name: name, decimals: decimals)
        }

        /// Which attitude angle this measurement carries, by the names consumers use: any name containing
        /// `ROLL`, or `HEEL`, is heel; `PTCH`, `PITCH` and `TRIM` are pitch. Letter case is ignored.
        public var attitudeAxis: AttitudeAxis? {
            guard type == UInt8(ascii: "A"), unit == nil || unit == UInt8(ascii: "D"), let name else { return nil }
            // Names on the wire are ASCII: compared byte by byte, so no Unicode tables are needed (the Pi build).
            let upper = Self.uppercaseASCII(name)
            if Self.bytes(upper, contain: Array("ROLL".utf8)) || upper == Array("HEEL".utf8) { return .roll }
            for pitch in ["PTCH", "PITCH", "TRIM"] where upper == Array(pitch.utf8) { return .pitch }
            return nil
        }

        /// The barometric pressure in pascals when this is a barometer's reading (`P,1.0132,B,Barometer`): type `P`,
        /// unit `B` (bars), `P` (pascals) or `H` (hectopascals), a name that says barometer or air pressure
        /// (`Barometer`, `BARO`, `AirPressure`, `Air`, `ATMP`). An oil or water pressure is not one.
        public var barometricPressure: Double? {
            guard type == UInt8(ascii: "P"), let value, let name else { return nil }
            let upper = Self.uppercaseASCII(name)
            let names = ["BARO", "AIR", "ATMP", "ATMOS"]
            guard names.contains(where: { Self.bytes(upper, contain: Array($0.utf8)) }) else { return nil }
            switch unit {
            case UInt8(ascii: "B"): return value * 100_000
            case UInt8(ascii: "P"): return value
            case UInt8(ascii: "H"): return value * 100
            default: return nil
            }
        }

        /// Writes the quadruple: type, value, unit, name.
        func write(to w: inout SentenceWriter) {
            w.character(type)
            w.number(value, decimals: decimals)
            w.character(unit)
            w.text(name)
        }

        /// Whether the name equals `other`, ignoring letter case.
        public func nameMatches(_ other: String) -> Bool {
            guard let name else { return false }
            return Self.uppercaseASCII(name) == Self.uppercaseASCII(other)
        }

        private static func uppercaseASCII(_ text: String) -> [UInt8] {
            text.utf8.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0 }
        }

        private static func bytes(_ haystack: [UInt8], contain needle: [UInt8]) -> Bool {
            guard haystack.count >= needle.count else { return false }
            for start in 0...(haystack.count - needle.count)
            where haystack[start..<start + needle.count].elementsEqual(needle) {
                return true
            }
            return false
        }
    }

    public enum AttitudeAxis: Hashable, Sendable {
        /// Heel: positive starboard side down.
        case roll
        /// Pitch: positive bow up.
        case pitch
    }

    public var measurements: [Measurement]
    /// Fields skipped to bring misaligned quadruples back in line.
    public var skippedFields: Int

    public init(_ measurements: [Measurement]) {
        self.measurements = measurements
        self.skippedFields = 0
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        measurements = []
        skippedFields = 0
        while !r.isAtEnd {
            var probe = r
            if let measurement = try XDR.quadruple(&probe) {
                measurements.append(measurement)
                r = probe
            } else {
                r.skip()
                skippedFields += 1
            }
        }
    }

    /// Reads one quadruple, or nil when the fields at this place cannot be one; a value written as a number that no
    /// instrument can measure (`nan`, `inf`, `1e308`) is implausible rather than a field to skip.
    private static func quadruple(_ r: inout FieldReader) throws(DecodeError) -> Measurement? {
        do throws(DecodeError) {
            guard let type = try r.character(), Address.isAddressByte(type), type > UInt8(ascii: "9") else {
                return nil
            }
            var peek = r
            let value: Double?
            let decimals: Int
            do {
                (value, decimals) = try r.decimalWithPlaces()
            } catch {
                // Only a field that is not a decimal is looked at again (as text, which allocates): `nan`, `inf`
                // and `1e308` are implausible, anything else is a measurement left out.
                if let raw = peek.text(), isNonDecimalNumber(raw) { throw DecodeError.implausible(.measurement) }
                throw error
            }
            let unit = try r.character()
            let name = r.text()
            return Measurement(type: type, value: value, unit: unit, name: name, decimals: decimals)
        } catch {
            if case .implausible = error { throw error }
            return nil
        }
    }

    /// `nan`, `inf`, `infinity` (any case, signed) or a number with an exponent.
    static func isNonDecimalNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8).map { $0 | 0x20 }  // lower case for letters
        if let first = bytes.first, first == UInt8(ascii: "-") | 0x20 || first == UInt8(ascii: "+") | 0x20 {
            bytes.removeFirst()
        }
        if bytes == Array("nan".utf8) || bytes == Array("inf".utf8) || bytes == Array("infinity".utf8) { return true }
        guard let e = bytes.firstIndex(of: UInt8(ascii: "e")), e > 0 else { return false }
        let digit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        return bytes[..<e].contains(where: digit) && bytes[(e + 1)...].contains(where: digit)
    }

    public var shorteningSteps: Int { max(0, measurements.count - 1) }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        for measurement in measurements.prefix(measurements.count - shortening) { measurement.write(to: &w) }
    }

    /// The first heel (roll) value, degrees, positive starboard down.
    public var heel: Double? { measurements.first { $0.attitudeAxis == .roll }?.value }
    /// The first pitch value, degrees, positive bow up.
    public var pitch: Double? { measurements.first { $0.attitudeAxis == .pitch }?.value }
    /// The first barometer reading, pascals.
    public var barometricPressure: Double? {
        for measurement in measurements { if let pascals = measurement.barometricPressure { return pascals } }
        return nil
    }
}

extension FieldReader {
    /// A decimal number and the count of digits after its point; (nil, 0) for an empty field.
    public mutating func decimalWithPlaces() throws(DecodeError) -> (Double?, Int) {
        var probe = self
        guard let range = probe.nextRange(), !range.isEmpty else {
            self = probe
            return (nil, 0)
        }
        let value = try double()
        var places = 0
        if let point = bytes[range].firstIndex(of: UInt8(ascii: ".")) { places = range.upperBound - point - 1 }
        return (value, min(places, 9))
    }
}

/// Up to four XDR quadruples held inline: the encoder for tick paths, where an array would allocate.
/// (Plain stored properties: an `InlineArray` of a type holding a `String` allocates when it is created.)
public struct InlineXDR: Sendable, EncodableSentence {
    public static let formatter = Formatter(0x58, 0x44, 0x52)  // "XDR"
    public static let capacity = 4

    private var first: XDR.Measurement?
    private var second: XDR.Measurement?
    private var third: XDR.Measurement?
    private var fourth: XDR.Measurement?
    public private(set) var count = 0

    public init() {}

    /// Two quadruples, the usual heel-and-pitch or direction-and-speed pair.
    public init(_ first: XDR.Measurement, _ second: XDR.Measurement) {
        append(first)
        append(second)
    }

    /// Adds a quadruple; beyond ``capacity`` it is dropped.
    public mutating func append(_ measurement: XDR.Measurement) {
        switch count {
        case 0: first = measurement
        case 1: second = measurement
        case 2: third = measurement
        case 3: fourth = measurement
        default: return
        }
        count += 1
    }

    public var shorteningSteps: Int { max(0, count - 1) }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        let kept = count - shortening
        if kept > 0, let first { first.write(to: &w) }
        if kept > 1, let second { second.write(to: &w) }
        if kept > 2, let third { third.write(to: &w) }
        if kept > 3, let fourth { fourth.write(to: &w) }
    }
}
