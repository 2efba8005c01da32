import NMEA
import Testing

/// A small deterministic generator, so a failure can be reproduced.
struct SeededGenerator {
    var state: UInt64

    mutating func unit() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }

    mutating func value(_ range: ClosedRange<Double>, nilChance: Double = 0.15) -> Double? {
        unit() < nilChance ? nil : range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    mutating func bool() -> Bool? { unit() < 0.1 ? nil : unit() < 0.5 }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int(unit() * Double(choices.count)) % choices.count] }

    mutating func identifier(maxLength: Int = 24) -> String? {
        guard unit() > 0.1 else { return nil }
        let length = 1 + Int(unit() * Double(maxLength))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_ .".utf8)
        return String(decoding: (0..<length).map { _ in pick(alphabet) }, as: UTF8.self)
    }

    mutating func time() -> UTCTime? {
        unit() < 0.1 ? nil : UTCTime(millisecondsOfDay: Int(unit() * 86_399_990) / 10 * 10)
    }
}

@Suite struct RoundTripTests {
    static let iterations = 400

    /// Compares two decoded values field by field: numbers within `tolerance`, everything else exactly.
    static func differences(_ left: Any, _ right: Any, tolerance: Double, path: String = "") -> [String] {
        let leftMirror = Mirror(reflecting: left)
        let rightMirror = Mirror(reflecting: right)
        if leftMirror.displayStyle == .optional {
            let leftValue = leftMirror.children.first?.value
            let rightValue = rightMirror.children.first?.value
            switch (leftValue, rightValue) {
            case (nil, nil): return []
            case (let l?, let r?): return differences(l, r, tolerance: tolerance, path: path)
            default: return ["\(path): \(String(describing: leftValue)) vs \(String(describing: rightValue))"]
            }
        }
        if let l = left as? Double, let r = right as? Double {
            return abs(l - r) <= tolerance ? [] : ["\(path): \(l) vs \(r)"]
        }
        if leftMirror.displayStyle == .struct || leftMirror.displayStyle == .collection {
            let lc = Array(leftMirror.children)
            let rc = Array(rightMirror.children)
            guard lc.count == rc.count else { return ["\(path): \(lc.count) vs \(rc.count) children"] }
            return zip(lc, rc).flatMap { l, r in
                differences(l.value, r.value, tolerance: tolerance, path: path + "." + (l.label ?? "[]"))
            }
        }
        let same = String(describing: left) == String(describing: right)
        return same ? [] : ["\(path): \(left) vs \(right)"]
    }

    /// Encodes, checks the wire rules, decodes, and checks that a second pass changes nothing.
    static func check<T: DecodableSentence & EncodableSentence>(
        _ value: T, talker: Talker = "II", tolerance: Double = 0.0501, compare: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let encoded = try value.encode(talker: talker)
            #expect(encoded.wireLength <= 82, "\(encoded)", sourceLocation: sourceLocation)
            let reframed = try Sentence(parsing: encoded.wireBytes, maximumLength: 82)
            let decoded = try T(reframed)
            let again = try decoded.encode(talker: talker)
            #expect(again == encoded, "not idempotent: \(encoded) then \(again)", sourceLocation: sourceLocation)
            if compare {
                let found = differences(value, decoded, tolerance: tolerance)
                #expect(found.isEmpty, "\(encoded): \(found)", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("\(value): \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("wind sentences survive encode and decode")
    func wind() {
        var g = SeededGenerator(state: 1)
        for _ in 0..<Self.iterations {
            Self.check(
                MWV(
                    angle: g.value(0...359.94), reference: g.pick([.relative, .true, nil]),
                    speed: g.value(0...80), unit: g.pick([.knots, .metresPerSecond, .kilometresPerHour, nil]),
                    isValid: g.bool()), talker: "WI")
            Self.check(
                MWD(
                    directionTrue: g.value(0...359.94), directionMagnetic: g.value(0...359.94),
                    speedKnots: g.value(0...80), speedMetresPerSecond: g.value(0...40)), talker: "WI")
            let wind = SideWind(signedAngle: g.value(-179.9...180), knots: g.value(0...60))
            Self.check(VWR(wind), tolerance: 0.06)
            Self.check(VWT(wind), tolerance: 0.06)
            Self.check(VPW(knots: g.value(-20...20)), tolerance: 0.0051)
        }
    }

    @Test("heading and motion sentences survive encode and decode")
    func heading() {
        var g = SeededGenerator(state: 2)
        for _ in 0..<Self.iterations {
            Self.check(
                HDG(
                    sensorHeading: g.value(0...359.94), deviation: g.value(-20...20),
                    variation: g.value(-30...30)), talker: "HC")
            Self.check(HDM(heading: g.value(0...359.94)), talker: "HC")
            Self.check(HDT(heading: g.value(0...359.94)), talker: "HE")
            Self.check(ROT(rate: g.value(-720...720), isValid: g.bool()), talker: "TI")
            let count = 1 + Int(g.unit() * 4)
            let measurements = (0..<count).map { index in
                let value = g.value(-180...180)
                // An empty value carries no digits, so its decimals hint reads back as 0.
                return XDR.Measurement(
                    type: g.pick(Array("ACPGHU".utf8)), value: value,
                    unit: g.pick([UInt8(ascii: "D"), UInt8(ascii: "C"), nil]),
                    name: g.pick(["ROLL", "PTCH", "HEEL", "TRIM", "AIRTEMP", "X\(index)"]),
                    decimals: value == nil ? 0 : g.pick([0, 1, 2, 3]))
            }
            Self.check(XDR(measurements), tolerance: 0.51)
        }
    }

    @Test("position sentences survive encode and decode")
    func position() {
        var g = SeededGenerator(state: 3)
        for _ in 0..<Self.iterations {
            let date = g.unit() < 0.1 ? nil : UTCDate(daysSinceEpoch: 3650 + Int(g.unit() * 30000))
            Self.check(
                RMC(
                    time: g.time(), isValid: g.bool(), latitude: g.value(-89.99...89.99),
                    longitude: g.value(-179.99...179.99), speedOverGround: g.value(0...40),
                    courseOverGround: g.value(0...359.9), date: date, magneticVariation: g.value(-30...30),
                    mode: g.pick([FAAMode.autonomous, .differential, .notValid, nil])),
                talker: "GP", tolerance: 0.0501)
            Self.check(
                GGA(
                    time: g.time(), latitude: g.value(-89.99...89.99), longitude: g.value(-179.99...179.99),
                    quality: g.pick([0, 1, 2, 4, nil]), satellites: g.pick([4, 12, nil]),
                    horizontalDilution: g.value(0.5...10), altitude: g.value(-50...500),
                    geoidSeparation: g.value(-50...60), differentialAge: g.value(0...30),
                    differentialStation: g.pick([nil, 17])), talker: "GP")
            Self.check(
                VTG(
                    courseTrue: g.value(0...359.9), courseMagnetic: g.value(0...359.9),
                    speedKnots: g.value(0...40), speedKilometresPerHour: g.value(0...80),
                    mode: g.pick([FAAMode.autonomous, nil])), talker: "GP")
            Self.check(
                VHW(
                    headingTrue: g.value(0...359.9), headingMagnetic: g.value(0...359.9),
                    speedKnots: g.value(0...30), speedKilometresPerHour: g.value(0...55)), talker: "VW")
            Self.check(DPT(depth: g.value(0...300), offset: g.value(-3...3)), talker: "SD")
        }
    }

    @Test("route sentences survive encode and decode, and long IDs only ever get shorter")
    func route() {
        var g = SeededGenerator(state: 4)
        for _ in 0..<Self.iterations {
            let mode = g.pick([FAAMode.autonomous, .differential, .notValid, nil])
            Self.check(
                XTE(
                    status1: g.bool(), status2: g.bool(), magnitude: g.value(0...9.99),
                    steer: g.pick([Side.left, .right, nil]), mode: mode), talker: "GP", tolerance: 0.00051)
            let waypoint = WaypointBearing(
                time: g.time(), latitude: g.value(-89...89), longitude: g.value(-179...179),
                bearingTrue: g.value(0...359.9), bearingMagnetic: g.value(0...359.9),
                distance: g.value(0...999.99), waypointID: g.identifier(), mode: mode)
            // IDs may be shortened to fit, so compare field by field only when nothing had to give way.
            let bwcFits =
                (try? BWC(waypoint).encode(talker: "GP"))
                .map { (try? BWC($0))?.waypoint.waypointID == waypoint.waypointID } ?? false
            Self.check(BWC(waypoint), talker: "GP", compare: bwcFits)
            Self.check(BWR(waypoint), talker: "GP", compare: bwcFits)
            let rmb = RMB(
                isValid: g.bool(), crossTrackError: g.value(0...9.99), steer: g.pick([Side.left, .right]),
                originID: g.identifier(), destinationID: g.identifier(),
                destinationLatitude: g.value(-89...89), destinationLongitude: g.value(-179...179),
                range: g.value(0...999.99), bearingTrue: g.value(0...359.9),
                closingVelocity: g.value(-20...20), arrived: g.bool(), mode: mode)
            Self.check(rmb, talker: "GP", compare: false)
            if let decoded = try? RMB(rmb.encode(talker: "GP")) {
                #expect(rmb.originID.map { $0.hasPrefix(decoded.originID ?? "") } ?? (decoded.originID == nil))
            } else {
                Issue.record("RMB did not encode: \(rmb)")
            }
            let apb = APB(
                status1: g.bool(), status2: g.bool(), crossTrackError: g.value(0...9.99),
                steer: g.pick([Side.left, .right]), arrivalCircleEntered: g.bool(),
                perpendicularPassed: g.bool(), bearingOriginToDestination: g.value(0...359.9),
                destinationID: g.identifier(), bearingToDestination: g.value(0...359.9),
                headingToSteer: g.value(0...359.9), reference: g.pick([BearingReference.true, .magnetic]),
                mode: mode)
            Self.check(apb, talker: "GP", compare: false)
            Self.check(
                WCV(velocity: g.value(-20...20), waypointID: g.identifier(), mode: mode), talker: "GP",
                compare: false)
        }
    }

    @Test("alarm and text sentences survive encode and decode")
    func alarms() {
        var g = SeededGenerator(state: 5)
        for _ in 0..<Self.iterations {
            Self.check(
                ALR(
                    time: g.time(), alarmNumber: g.pick([1, 12, 999, nil]), isActive: g.bool(),
                    isAcknowledged: g.bool(), text: g.identifier(maxLength: 80)), compare: false)
            for part in TXT.messages(g.identifier(maxLength: 200) ?? "", identifier: 2) { Self.check(part) }
        }
    }
}
