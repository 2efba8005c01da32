/// What one AIS message says, read from its bits (ITU-R M.1371-5): the messages a chart and a collision alarm need.
///
/// - 1, 2, 3: class A position report; 18: class B position report; 19: class B extended (position and static);
/// - 5: class A static and voyage data; 24: class B static data (part A the name, part B the rest);
/// - 21: aid to navigation (its position, name, type, whether virtual or off position).
///
/// Every other type is kept as its type and MMSI alone. "Not available" values (SOG 1023, longitude 181°, latitude
/// 91°, COG 360°, heading 511, ...) are nil, never a number; a value out of its range is nil too, and counted by
/// ``AISReport/implausible``. Speeds in knots, angles in degrees, lengths in metres, as sent.
public struct AISReport: Hashable, Sendable {
    public var messageType: Int
    public var repeatIndicator: Int
    public var mmsi: UInt32
    public var position: Position?
    public var statics: Statics?
    public var aid: AidToNavigation?
    /// Fields that were sent but cannot be true (latitude 95°, SOG 150 kn in a class A report): read as nil and
    /// counted here, so the caller can count the message.
    public var implausible = 0

    public struct Position: Hashable, Sendable {
        public var latitude: Double?
        public var longitude: Double?
        /// Knots; 102.2 means 102.2 or more.
        public var speedOverGround: Double?
        /// Degrees true.
        public var courseOverGround: Double?
        /// Degrees true.
        public var heading: Double?
        /// Degrees a minute, positive to starboard; nil when not sent or only "turning, no indicator".
        public var rateOfTurn: Double?
        /// 0 under way using engine ... 8 sailing, 14 AIS-SART active, 15 not defined (class A only).
        public var navigationStatus: Int?
        public var isAccurate: Bool
        /// The UTC second of the report (0–59); nil when not available.
        public var second: Int?
        public var isClassB: Bool

        public init(
            latitude: Double? = nil, longitude: Double? = nil, speedOverGround: Double? = nil,
            courseOverGround: Double? = nil, heading: Double? = nil, rateOfTurn: Double? = nil,
            navigationStatus: Int? = nil, isAccurate: Bool = false, second: Int? = nil, isClassB: Bool = false
        ) {
            self.latitude = latitude
            self.longitude = longitude
            self.speedOverGround = speedOverGround
            self.courseOverGround = courseOverGround
            self.heading = heading
            self.rateOfTurn = rateOfTurn
            self.navigationStatus = navigationStatus
            self.isAccurate = isAccurate
            self.second = second
            self.isClassB = isClassB
        }
    }

    public struct Statics: Hashable, Sendable {
        public var name: String?
        public var callsign: String?
        public var imo: UInt32?
        /// ITU-R M.1371 table 53 (30 fishing, 36 sailing, 37 pleasure, 60–69 passenger, 70–79 cargo, ...).
        public var shipType: Int?
        /// Metres from the position reference to the bow, stern, port side and starboard side.
        public var toBow: Int?
        public var toStern: Int?
        public var toPort: Int?
        public var toStarboard: Int?
        /// Metres.
        public var draught: Double?
        public var destination: String?
        public var eta: ETA?
        /// Message 24: which part (0 A, 1 B) this was.
        public var part: Int?

        public init() {}

        public var length: Int? { toBow.flatMap { bow in toStern.map { bow + $0 } }.flatMap { $0 > 0 ? $0 : nil } }
        public var beam: Int? { toPort.flatMap { port in toStarboard.map { port + $0 } }.flatMap { $0 > 0 ? $0 : nil } }
    }

    /// The estimated time of arrival (UTC), each part nil when not available.
    public struct ETA: Hashable, Sendable {
        public var month: Int?
        public var day: Int?
        public var hour: Int?
        public var minute: Int?

        public init(month: Int? = nil, day: Int? = nil, hour: Int? = nil, minute: Int? = nil) {
            self.month = month
            self.day = day
            self.hour = hour
            self.minute = minute
        }
    }

    public struct AidToNavigation: Hashable, Sendable {
        /// ITU-R M.1371 table 74 (1 reference point, 5–20 fixed marks and lights, 20–31 floating).
        public var type: Int
        public var isVirtual: Bool
        public var isOffPosition: Bool?

        public init(type: Int, isVirtual: Bool, isOffPosition: Bool?) {
            self.type = type
            self.isVirtual = isVirtual
            self.isOffPosition = isOffPosition
        }
    }

    /// The kind of station an MMSI names (ITU-R M.585): search and rescue transmitters first.
    public enum Station: Hashable, Sendable {
        case vessel
        /// 970xxyyyy: AIS-SART (search and rescue transponder).
        case searchAndRescueTransponder
        /// 972xxyyyy: man overboard device.
        case manOverboard
        /// 974xxyyyy: EPIRB with AIS.
        case epirb
        /// 99MIDxxxx: aid to navigation.
        case aidToNavigation
        /// 111MIDxxx: search and rescue aircraft.
        case searchAndRescueAircraft
        /// 00MIDxxxx: coast station.
        case baseStation
    }

    public var station: Station {
        switch mmsi / 1_000_000 {
        case 970: return .searchAndRescueTransponder
        case 972: return .manOverboard
        case 974: return .epirb
        default: break
        }
        if mmsi / 10_000_000 == 99 { return .aidToNavigation }
        if mmsi / 1_000_000 == 111 { return .searchAndRescueAircraft }
        if mmsi < 10_000_000 { return .baseStation }
        return .vessel
    }

    /// Whether it is a distress beacon: an AIS-SART, MOB or EPIRB (an alarm at once).
    public var isDistress: Bool {
        station == .searchAndRescueTransponder || station == .manOverboard || station == .epirb
    }

    public init(messageType: Int, repeatIndicator: Int = 0, mmsi: UInt32) {
        self.messageType = messageType
        self.repeatIndicator = repeatIndicator
        self.mmsi = mmsi
    }

    /// Reads a whole message; nil when it is too short to say even its type and MMSI.
    public init?(_ bits: AISBits) {
        guard let type = bits.int(0, 6), let repeatIndicator = bits.int(6, 2), let mmsi = bits.unsigned(8, 30) else {
            return nil
        }
        self.init(messageType: type, repeatIndicator: repeatIndicator, mmsi: mmsi)
        switch type {
        case 1, 2, 3:
            var p = Position(isAccurate: bits.int(60, 1) == 1)
            p.navigationStatus = bits.int(38, 4)
            p.rateOfTurn = bits.signed(42, 8).flatMap(Self.rateOfTurn)
            p.speedOverGround = speed(bits.int(50, 10))
            (p.longitude, p.latitude) = place(bits.signed(61, 28), bits.signed(89, 27))
            p.courseOverGround = course(bits.int(116, 12))
            p.heading = heading(bits.int(128, 9))
            p.second = bits.int(137, 6).flatMap { $0 < 60 ? $0 : nil }
            position = p
        case 18, 19:
            var p = Position(isAccurate: bits.int(56, 1) == 1, isClassB: true)
            p.speedOverGround = speed(bits.int(46, 10))
            (p.longitude, p.latitude) = place(bits.signed(57, 28), bits.signed(85, 27))
            p.courseOverGround = course(bits.int(112, 12))
            p.heading = heading(bits.int(124, 9))
            p.second = bits.int(133, 6).flatMap { $0 < 60 ? $0 : nil }
            position = p
            if type == 19 {
                var s = Statics()
                s.name = bits.text(143, characters: 20)
                s.shipType = bits.int(263, 8).flatMap { $0 > 0 ? $0 : nil }
                dimensions(&s, bits, at: 271)
                statics = s
            }
        case 5:
            var s = Statics()
            s.imo = bits.unsigned(40, 30).flatMap { $0 > 0 ? $0 : nil }
            s.callsign = bits.text(70, characters: 7)
            s.name = bits.text(112, characters: 20)
            s.shipType = bits.int(232, 8).flatMap { $0 > 0 ? $0 : nil }
            dimensions(&s, bits, at: 240)
            let month = bits.int(274, 4).flatMap { (1...12).contains($0) ? $0 : nil }
            let day = bits.int(278, 5).flatMap { (1...31).contains($0) ? $0 : nil }
            let hour = bits.int(283, 5).flatMap { $0 < 24 ? $0 : nil }
            let minute = bits.int(288, 6).flatMap { $0 < 60 ? $0 : nil }
            if month != nil || day != nil || hour != nil || minute != nil {
                s.eta = ETA(month: month, day: day, hour: hour, minute: minute)
            }
            s.draught = bits.int(294, 8).flatMap { $0 > 0 ? Double($0) / 10 : nil }
            s.destination = bits.text(302, characters: 20)
            statics = s
        case 21:
            var p = Position(isAccurate: bits.int(163, 1) == 1)
            (p.longitude, p.latitude) = place(bits.signed(164, 28), bits.signed(192, 27))
            p.second = bits.int(253, 6).flatMap { $0 < 60 ? $0 : nil }
            position = p
            var s = Statics()
            let extra = bits.count > 272 ? bits.text(272, characters: (bits.count - 272) / 6) : nil
            s.name = bits.text(43, characters: 20).map { $0 + (extra ?? "") } ?? extra
            dimensions(&s, bits, at: 219)
            statics = s
            aid = AidToNavigation(
                type: bits.int(38, 5) ?? 0, isVirtual: bits.int(269, 1) == 1,
                isOffPosition: p.second == nil ? nil : bits.int(259, 1) == 1)
        case 24:
            var s = Statics()
            s.part = bits.int(38, 2)
            if s.part == 0 {
                s.name = bits.text(40, characters: 20)
            } else if s.part == 1 {
                s.shipType = bits.int(40, 8).flatMap { $0 > 0 ? $0 : nil }
                s.callsign = bits.text(90, characters: 7)
                // An auxiliary craft (98MIDxxxx) sends its mother ship's MMSI where the dimensions would be.
                if mmsi / 10_000_000 != 98 { dimensions(&s, bits, at: 132) }
            }
            statics = s
        default:
            break
        }
    }

    private static func rateOfTurn(_ raw: Int) -> Double? {
        guard abs(raw) <= 126 else { return nil }
        let magnitude = (Double(abs(raw)) / 4.733) * (Double(abs(raw)) / 4.733)
        return raw < 0 ? -magnitude : magnitude
    }

    private mutating func speed(_ raw: Int?) -> Double? {
        guard let raw, raw != 1023 else { return nil }
        return Double(raw) / 10
    }

    private mutating func course(_ raw: Int?) -> Double? {
        guard let raw, raw != 3600 else { return nil }
        guard raw < 3600 else {
            implausible += 1
            return nil
        }
        return Double(raw) / 10
    }

    private mutating func heading(_ raw: Int?) -> Double? {
        guard let raw, raw != 511 else { return nil }
        guard raw < 360 else {
            implausible += 1
            return nil
        }
        return Double(raw)
    }

    /// Longitude and latitude in 1/10000 minute; 181° and 91° are "not available", beyond them cannot be.
    private mutating func place(_ longitude: Int?, _ latitude: Int?) -> (Double?, Double?) {
        guard let longitude, let latitude, longitude != 108_600_000, latitude != 54_600_000 else { return (nil, nil) }
        let lon = Double(longitude) / 600_000
        let lat = Double(latitude) / 600_000
        guard abs(lon) <= 180, abs(lat) <= 90 else {
            implausible += 1
            return (nil, nil)
        }
        return (lon, lat)
    }

    private func dimensions(_ s: inout Statics, _ bits: AISBits, at start: Int) {
        s.toBow = bits.int(start, 9)
        s.toStern = bits.int(start + 9, 9)
        s.toPort = bits.int(start + 18, 6)
        s.toStarboard = bits.int(start + 24, 6)
    }
}
