import Marine
import NMEA
import Testing

@testable import Bridge
@testable import N2K

/// NMEA 2000 into 0183: each PGN into the sentence the mapping table says, the conventions kept (heel starboard down,
/// the XTE letter the way to steer), the merged sentences made only of parts recent enough, AIS re-encoded.
@Suite struct InboundTests {
    static func convert(_ messages: [(N2KMessage, Double)], into converter: inout N2KInbound) -> [String] {
        var out: [String] = []
        for (message, time) in messages {
            converter.convert(message, at: time) { out.append($0.description.trimmingLineEnd) }
        }
        return out
    }

    static func message(_ pgn: UInt32, _ payload: N2KPayload, from source: UInt8 = 10) -> N2KMessage {
        N2KMessage(pgn: pgn, priority: 2, source: source, payload: payload)
    }

    static func decoded(_ text: String) throws -> Message { try Message(Sentence(parsing: text + "\r\n")) }

    @Test("wind: apparent is MWV R, boat-referenced true is MWV T, ground-referenced is MWD; angles 0–360 from the bow")
    func wind() throws {
        var c = N2KInbound()
        let out = Self.convert(
            [
                (
                    Self.message(130306, WindData(speed: 6.0, angle: Angle.radians(-40), reference: .apparent).payload),
                    0
                ),
                (
                    Self.message(130306, WindData(speed: 5.0, angle: Angle.radians(310), reference: .trueBoat).payload),
                    0
                ),
                (
                    Self.message(
                        130306, WindData(speed: 5.0, angle: Angle.radians(225), reference: .trueNorth).payload), 0
                ),
            ], into: &c)
        #expect(out.count == 3)
        guard case .mwv(let apparent) = try Self.decoded(out[0]), case .mwv(let trueWind) = try Self.decoded(out[1]),
            case .mwd(let direction) = try Self.decoded(out[2])
        else {
            Issue.record("not MWV, MWV, MWD: \(out)")
            return
        }
        #expect(apparent.reference == .relative && abs(apparent.angle! - 320) < 0.06)
        #expect(abs(apparent.speedKnots! - Units.knots(metresPerSecond: 6)) < 0.06)
        #expect(trueWind.reference == .true && abs(trueWind.angle! - 310) < 0.06)
        #expect(abs(direction.directionTrue! - 225) < 0.06 && direction.directionMagnetic == nil, "no variation known")
        #expect(out[0].hasPrefix("$WIMWV"), "not the engine's II: never taken for its own echo")
    }

    @Test("heading: magnetic is HDG with 127258's variation when 127250 has none; true is HDT")
    func heading() throws {
        var c = N2KInbound()
        let out = Self.convert(
            [
                (Self.message(127258, Self.variation(-15)), 0),
                (Self.message(127250, VesselHeading(heading: Angle.radians(129.7), reference: .magnetic).payload), 0.5),
                (Self.message(127250, VesselHeading(heading: Angle.radians(86.1), reference: .trueNorth).payload), 0.6),
            ], into: &c)
        #expect(out.count == 2)
        guard case .hdg(let hdg) = try Self.decoded(out[0]), case .hdt(let hdt) = try Self.decoded(out[1]) else {
            Issue.record("\(out)")
            return
        }
        #expect(abs(hdg.sensorHeading! - 129.7) < 0.06 && abs(hdg.variation! - -15) < 0.06)
        #expect(abs(hdt.heading! - 86.1) < 0.06)
    }

    static func variation(_ degrees: Double) -> N2KPayload {
        var w = N2KWriter(count: 8)
        CanboatPGNs.MagneticVariation.source.writeRaw(4, into: &w)
        CanboatPGNs.MagneticVariation.variation.write(Angle.radians(degrees), into: &w)
        return N2KPayload(w.bytes)
    }

    @Test("attitude: 127257's roll (starboard down) is XDR ROLL with its sign, pitch (bow up) PTCH")
    func attitude() throws {
        var c = N2KInbound()
        let out = Self.convert(
            [(Self.message(127257, N2K.Attitude(pitch: Angle.radians(-2.5), roll: Angle.radians(12.3)).payload), 0)],
            into: &c)
        #expect(out == ["$YXXDR,A,12.3,D,ROLL,A,-2.5,D,PTCH*" + Self.checksum("YXXDR,A,12.3,D,ROLL,A,-2.5,D,PTCH")])
    }

    static func checksum(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(sum >> 4)], digits[Int(sum & 15)]])
    }

    @Test("cross-track: right of the track (positive) says steer L; RMB takes it and the route's waypoint names")
    func guidance() throws {
        var c = N2KInbound()
        var navigation = NavigationData()
        navigation.distanceToWaypoint = 1852 * 2.5
        navigation.bearingReference = 0
        navigation.bearingToDestination = Angle.radians(225.7)
        navigation.originWaypoint = 1
        navigation.destinationWaypoint = 2
        navigation.destinationLatitude = -17.6936884
        navigation.destinationLongitude = 177.3707721
        navigation.closingVelocity = 3
        navigation.arrivalCircleEntered = false
        let route = RouteInformation(
            name: "Lautoka",
            waypoints: [
                .init(id: 1, name: "START", latitude: -17.68, longitude: 177.38),
                .init(id: 2, name: "WPT001", latitude: -17.6936884, longitude: 177.3707721),
            ])
        let out = Self.convert(
            [
                (Self.message(129285, route.payload), 0),
                (Self.message(129283, CrossTrackError(xte: 92.6).payload), 0.1),
                (Self.message(129284, navigation.payload), 0.2),
            ], into: &c)
        #expect(out.count == 2)
        guard case .xte(let xte) = try Self.decoded(out[0]), case .rmb(let rmb) = try Self.decoded(out[1]) else {
            Issue.record("\(out)")
            return
        }
        #expect(xte.steer == .left && abs(xte.magnitude! - 0.05) < 0.001)
        #expect(rmb.steer == .left && rmb.originID == "START" && rmb.destinationID == "WPT001")
        #expect(abs(rmb.destinationLatitude! - -17.6936884) < 1e-5 && abs(rmb.range! - 2.5) < 0.01)
        #expect(abs(rmb.bearingTrue! - 225.7) < 0.06 && rmb.arrived == false)
    }

    @Test("position: RMC once a second when 129026's course comes, with 129025's position and 126992's time")
    func position() throws {
        var c = N2KInbound()
        var messages: [(N2KMessage, Double)] = []
        // 2016-02-28 19:57:07 UTC.
        var time = N2KWriter(count: 8)
        CanboatPGNs.SystemTime.source.writeRaw(0, into: &time)
        CanboatPGNs.SystemTime.date.write(16859, into: &time)
        CanboatPGNs.SystemTime.time.write(71827, into: &time)
        messages.append((Self.message(126992, N2KPayload(time.bytes)), 0))
        // A GPS as they come: the position ten times a second, the course four.
        for index in 0..<20 {
            let t = 0.05 + Double(index) * 0.1
            let position = PositionRapid(latitude: 14.0740592 + Double(index) * 1e-6, longitude: -60.950393)
            messages.append((Self.message(129025, position.payload), t))
            if index % 5 == 2 || index % 5 == 4 {
                messages.append(
                    (Self.message(129026, CourseOverGround(course: Angle.radians(80), speed: 2).payload), t))
            }
        }
        let out = Self.convert(messages, into: &c)
        // The first position before any course (a GPS might send none), then once a second with the course.
        #expect(out.count == 1 + 2, "ZDA, then an RMC at 0.05 s and one at 1.25 s: \(out)")
        guard out.count == 3, case .rmc(let first) = try Self.decoded(out[1]),
            case .rmc(let rmc) = try Self.decoded(out[2])
        else {
            Issue.record("\(out)")
            return
        }
        #expect(first.courseOverGround == nil && first.time?.millisecondsOfDay == 71827_050)
        #expect(
            abs(rmc.latitude! - (14.0740592 + 12e-6)) < 2e-7 && abs(rmc.longitude! - -60.950393) < 2e-7, "\(out[2])")
        #expect(
            abs(rmc.courseOverGround! - 80) < 0.06 && abs(rmc.speedOverGround! - Units.knots(metresPerSecond: 2)) < 0.01
        )
        #expect(rmc.date == UTCDate(year: 2016, month: 2, day: 28) && rmc.time?.millisecondsOfDay == 71828_250)
        // A GPS that sends no course: its RMC from the position alone, the clock too old by then to be used.
        let late = Self.convert(
            [(Self.message(129025, PositionRapid(latitude: 14, longitude: -61).payload), 10)], into: &c)
        guard late.count == 1, case .rmc(let stale) = try Self.decoded(late[0]) else {
            Issue.record("\(late)")
            return
        }
        #expect(stale.courseOverGround == nil && stale.speedOverGround == nil && stale.time == nil)
    }

    @Test("environment: sea temperature is MTW; air, humidity and pressure are XDR with the names the engine reads")
    func environment() throws {
        var c = N2KInbound()
        let out = Self.convert(
            [
                (Self.message(130312, Environment(temperature: 273.15 + 24.5, source: 0).payload), 0),
                (Self.message(130314, Environment(pressure: 101_320).payload), 0),
            ], into: &c)
        #expect(out.count == 2)
        guard case .mtw(let mtw) = try Self.decoded(out[0]), case .xdr(let xdr) = try Self.decoded(out[1]) else {
            Issue.record("\(out)")
            return
        }
        #expect(abs(mtw.temperature! - 24.5) < 0.06)
        #expect(abs((xdr.measurements.first?.barometricPressure ?? 0) - 101_320) < 1)
    }

    @Test("AIS: a class A position from the bus is !AIVDM type 1 with the same MMSI, place, speed, course and ROT")
    func ais() throws {
        var position = AISPosition(pgn: 129038, mmsi: 244_660_000)
        position.messageId = 1
        position.latitude = 52.3712
        position.longitude = 4.8945
        position.speed = Units.metresPerSecond(knots: 12.3)
        position.course = Angle.radians(231.5)
        position.heading = Angle.radians(230)
        position.rateOfTurn = Angle.radians(12) / 60
        position.navigationStatus = 0
        position.timeStamp = 42
        var c = N2KInbound()
        let out = Self.convert([(Self.message(129038, position.payload, from: 43), 0)], into: &c)
        #expect(out.count == 1 && out[0].hasPrefix("!AIVDM,1,1,,A,"))
        var assembler = AISAssembler()
        guard case .vdm(let fragment) = try Self.decoded(out[0]), let bits = assembler.add(fragment, source: 0, at: 0),
            let report = AISReport(bits), let p = report.position
        else {
            Issue.record("\(out)")
            return
        }
        #expect(report.messageType == 1 && report.mmsi == 244_660_000 && p.navigationStatus == 0 && p.second == 42)
        #expect(abs(p.latitude! - 52.3712) < 2e-6 && abs(p.longitude! - 4.8945) < 2e-6)
        #expect(abs(p.speedOverGround! - 12.3) < 0.051 && abs(p.courseOverGround! - 231.5) < 0.051)
        #expect(p.heading == 230 && abs(p.rateOfTurn! - 12) < 1.5)
    }

    @Test("AIS: an MMSI past nine digits from a broken node is no vessel (30 bits made another vessel of it)")
    func aisImpossibleMMSI() {
        var position = AISPosition(pgn: 129038, mmsi: 0x9000_0000)
        position.messageId = 1
        position.latitude = 52.3712
        position.longitude = 4.8945
        var reader = N2KReader(position.payload)
        #expect(AISPosition(pgn: 129038, &reader).mmsi == nil)
        var c = N2KInbound()
        let out = Self.convert([(Self.message(129038, position.payload, from: 43), 0)], into: &c)
        #expect(out.isEmpty)
    }

    @Test("a message whose values are all 'not available' gives nothing, counted; out-of-range fields are counted")
    func unavailable() {
        var c = N2KInbound()
        let out = Self.convert(
            [
                (Self.message(130306, N2KPayload([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFA, 0xFF, 0xFF])), 0),
                (Self.message(127250, N2KPayload([0xFF, 0xFE, 0xFF, 0xFF, 0x7F, 0xFF, 0x7F, 0xFD])), 0),
            ], into: &c)
        #expect(out.isEmpty && c.empty == 2 && c.outOfRange == 1)
    }
}

extension String {
    var trimmingLineEnd: String {
        var text = self
        while text.last == "\n" || text.last == "\r" || text.last == "\r\n" { text.removeLast() }
        return text
    }
}
