/// Writes AIS messages (the simulator's targets, and tests): fields appended by width, armoured six bits a
/// character, split into VDM fragments that each fit in 82 bytes.
public struct AISBitWriter: Sendable {
    public private(set) var bits: [Bool] = []

    public init() {}

    /// `value`'s low `width` bits, most significant first (two's complement for a negative value).
    public mutating func append(_ value: Int, _ width: Int) {
        for bit in stride(from: width - 1, through: 0, by: -1) { bits.append((value >> bit) & 1 == 1) }
    }

    /// `characters` six-bit characters of text, upper-cased, padded with `@`.
    public mutating func append(text: String, characters: Int) {
        var bytes = Array(text.utf8.prefix(characters))
        while bytes.count < characters { bytes.append(UInt8(ascii: "@")) }
        for byte in bytes {
            var b = byte >= 97 && byte <= 122 ? byte - 32 : byte
            if b < 32 || b > 95 { b = UInt8(ascii: " ") }
            append(Int(b >= 64 ? b - 64 : b), 6)
        }
    }

    /// The payload characters and the fill bits that pad the last one.
    public var armoured: (payload: [UInt8], fillBits: Int) {
        let fill = (6 - bits.count % 6) % 6
        var out: [UInt8] = []
        var index = 0
        while index < bits.count {
            var value: UInt8 = 0
            for offset in 0..<6 {
                value <<= 1
                if index + offset < bits.count && bits[index + offset] { value |= 1 }
            }
            out.append(value < 40 ? value + 48 : value + 56)
            index += 6
        }
        return (out, fill)
    }

    /// The message as `!AIVDM` sentences (several when it does not fit in one), with `sequence` (0–9) naming the
    /// fragments of one message.
    public func sentences(channel: UInt8 = UInt8(ascii: "A"), sequence: Int = 0) -> [Sentence] {
        let (payload, fill) = armoured
        let perFragment = 60
        let count = max(1, (payload.count + perFragment - 1) / perFragment)
        var sentences: [Sentence] = []
        for number in 1...count {
            let part = payload[((number - 1) * perFragment)..<min(payload.count, number * perFragment)]
            var body = Array("!AIVDM,\(count),\(number),".utf8)
            if count > 1 { body += Array(String(sequence).utf8) }
            body += [UInt8(ascii: ","), channel, UInt8(ascii: ",")] + part + [UInt8(ascii: ",")]
            body += Array(String(number == count ? fill : 0).utf8)
            var checksum: UInt8 = 0
            for byte in body.dropFirst() { checksum ^= byte }
            let hex = Array("0123456789ABCDEF".utf8)
            body += [UInt8(ascii: "*"), hex[Int(checksum >> 4)], hex[Int(checksum & 0x0F)], 13, 10]
            if let sentence = try? Sentence(parsing: body, maximumLength: 82) { sentences.append(sentence) }
        }
        return sentences
    }
}

extension AISReport {
    /// A class A position report (type 1) or class B (type 18), as a transponder would send this report's position.
    public func positionBits() -> AISBitWriter {
        var w = AISBitWriter()
        let p = position ?? Position()
        let classB = p.isClassB
        w.append(classB ? 18 : 1, 6)
        w.append(repeatIndicator, 2)
        w.append(Int(mmsi), 30)
        if classB {
            w.append(0, 8)
        } else {
            w.append(p.navigationStatus ?? 15, 4)
            w.append(p.rateOfTurn.map(Self.rateOfTurnCode) ?? -128, 8)
        }
        w.append(p.speedOverGround.map { Int(($0 * 10).rounded()) } ?? 1023, 10)
        w.append(p.isAccurate ? 1 : 0, 1)
        w.append(p.longitude.map { Int(($0 * 600_000).rounded()) } ?? 108_600_000, 28)
        w.append(p.latitude.map { Int(($0 * 600_000).rounded()) } ?? 54_600_000, 27)
        w.append(p.courseOverGround.map { Int(($0 * 10).rounded()) % 3600 } ?? 3600, 12)
        w.append(p.heading.map { Int($0.rounded()) % 360 } ?? 511, 9)
        w.append(p.second ?? 60, 6)
        w.append(0, classB ? 29 : 25)
        return w
    }

    /// The ROT field's code for degrees a minute: 4.733 √|rate|, signed, at most ±126.
    static func rateOfTurnCode(_ degreesPerMinute: Double) -> Int {
        guard degreesPerMinute.isFinite else { return -128 }
        let code = min((4.733 * abs(degreesPerMinute).squareRoot()).rounded(), 126)
        return degreesPerMinute < 0 ? -Int(code) : Int(code)
    }

    /// An aid to navigation's report (type 21): its type, name, position and dimensions.
    public func aidBits() -> AISBitWriter {
        var w = AISBitWriter()
        let p = position ?? Position()
        let s = statics ?? Statics()
        w.append(21, 6)
        w.append(repeatIndicator, 2)
        w.append(Int(mmsi), 30)
        w.append(aid?.type ?? 0, 5)
        let name = Array((s.name ?? "").utf8)
        w.append(text: String(decoding: name.prefix(20), as: UTF8.self), characters: 20)
        w.append(p.isAccurate ? 1 : 0, 1)
        w.append(p.longitude.map { Int(($0 * 600_000).rounded()) } ?? 108_600_000, 28)
        w.append(p.latitude.map { Int(($0 * 600_000).rounded()) } ?? 54_600_000, 27)
        w.append(s.toBow ?? 0, 9)
        w.append(s.toStern ?? 0, 9)
        w.append(s.toPort ?? 0, 6)
        w.append(s.toStarboard ?? 0, 6)
        w.append(1, 4)
        w.append(p.second ?? 60, 6)
        w.append(aid?.isOffPosition == true ? 1 : 0, 1)
        w.append(0, 8)
        w.append(0, 1)
        w.append(aid?.isVirtual == true ? 1 : 0, 1)
        w.append(0, 1)
        w.append(0, 1)
        if name.count > 20 {
            // The name's extension: up to 14 more characters, in whole characters.
            let extra = String(decoding: name.dropFirst(20).prefix(14), as: UTF8.self)
            w.append(text: extra, characters: min(extra.utf8.count, 14))
        }
        return w
    }

    /// Class B static data (type 24): part A, the name, when ``Statics/part`` is 0; part B, the type, callsign and
    /// dimensions, otherwise.
    public func classBStaticBits() -> AISBitWriter {
        var w = AISBitWriter()
        let s = statics ?? Statics()
        let part = s.part ?? 1
        w.append(24, 6)
        w.append(repeatIndicator, 2)
        w.append(Int(mmsi), 30)
        w.append(part == 0 ? 0 : 1, 2)
        if part == 0 {
            w.append(text: s.name ?? "", characters: 20)
            w.append(0, 8)
            return w
        }
        w.append(s.shipType ?? 0, 8)
        w.append(text: "", characters: 7)
        w.append(text: s.callsign ?? "", characters: 7)
        w.append(s.toBow ?? 0, 9)
        w.append(s.toStern ?? 0, 9)
        w.append(s.toPort ?? 0, 6)
        w.append(s.toStarboard ?? 0, 6)
        w.append(0, 6)
        return w
    }

    /// Static and voyage data (type 5): name, callsign, type and dimensions.
    public func staticBits() -> AISBitWriter {
        var w = AISBitWriter()
        let s = statics ?? Statics()
        w.append(5, 6)
        w.append(repeatIndicator, 2)
        w.append(Int(mmsi), 30)
        w.append(0, 2)
        w.append(Int(s.imo ?? 0), 30)
        w.append(text: s.callsign ?? "", characters: 7)
        w.append(text: s.name ?? "", characters: 20)
        w.append(s.shipType ?? 0, 8)
        w.append(s.toBow ?? 0, 9)
        w.append(s.toStern ?? 0, 9)
        w.append(s.toPort ?? 0, 6)
        w.append(s.toStarboard ?? 0, 6)
        w.append(1, 4)
        w.append(s.eta?.month ?? 0, 4)
        w.append(s.eta?.day ?? 0, 5)
        w.append(s.eta?.hour ?? 24, 5)
        w.append(s.eta?.minute ?? 60, 6)
        w.append(s.draught.map { Int(($0 * 10).rounded()) } ?? 0, 8)
        w.append(text: s.destination ?? "", characters: 20)
        w.append(0, 2)
        return w
    }
}
