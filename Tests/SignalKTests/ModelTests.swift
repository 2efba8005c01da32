import Engine
import Marine
import NMEA
import TestSupport
import Testing

@testable import SignalK

/// The model: NMEA into SI units with the right signs, sources, withdrawal, and what the full model and deltas say.
@Suite struct ModelTests {
    let urn = "urn:mrn:signalk:uuid:6b0e776f-811a-4b35-980e-b93405371bc5"

    func sentence(_ body: String) throws -> Sentence { try Sentence(parsing: checksummed(body)) }

    func value(_ model: SignalKModel, _ path: String, source: String? = nil) -> SignalKValue? {
        model.entries[path]?.first { source == nil || $0.source == source }?.value
    }

    func number(_ model: SignalKModel, _ path: String) -> Double? {
        if case .number(let x)? = value(model, path) { return x }
        return nil
    }

    @Test("wind, heading, depth, temperature, attitude and rate of turn in SI units, signed as Signal K signs them")
    func conversions() throws {
        var model = SignalKModel(urn: urn)
        let at = 1_750_500_000.0
        for body in [
            "WIMWV,320.0,R,10.0,N,A", "HCHDG,124.2,2.0,E,1.5,W", "SDDPT,12.1,0.4", "YXMTW,18.5,C",
            "YXXDR,A,-4.9,D,ROLL,A,0.7,D,PTCH", "TIROT,-30.0,A", "VWVHW,,T,124.9,M,3.17,N,5.87,K",
        ] {
            model.observe(try sentence(body), input: "bus 1", at: 1, unixTime: at)
        }
        let awa = try #require(number(model, "environment.wind.angleApparent"))
        #expect(abs(awa - (-40.0 * .pi / 180)) < 1e-12, "320 relative is 40 degrees to port: negative")
        #expect(abs(try #require(number(model, "environment.wind.speedApparent")) - 10 * 1852 / 3600) < 1e-12)
        #expect(abs(try #require(number(model, "navigation.headingMagnetic")) - 126.2 * .pi / 180) < 1e-12)
        #expect(abs(try #require(number(model, "navigation.magneticVariation")) - (-1.5 * .pi / 180)) < 1e-12)
        #expect(number(model, "environment.depth.belowTransducer") == 12.1)
        #expect(abs(try #require(number(model, "environment.depth.belowSurface")) - 12.5) < 1e-12)
        #expect(abs(try #require(number(model, "environment.water.temperature")) - 291.65) < 1e-9)
        guard case .attitude(let roll?, let pitch?, nil)? = value(model, "navigation.attitude") else {
            Issue.record("no attitude")
            return
        }
        #expect(abs(roll - (-4.9 * .pi / 180)) < 1e-12 && abs(pitch - 0.7 * .pi / 180) < 1e-12)
        #expect(
            abs(try #require(number(model, "navigation.rateOfTurn")) - (-0.5 * .pi / 180)) < 1e-12, "deg/min to rad/s")
        #expect(abs(try #require(number(model, "navigation.speedThroughWater")) - 3.17 * 1852 / 3600) < 1e-12)
        #expect(model.entries["environment.wind.angleApparent"]?.first?.source == "bus_1.WI", "input name and talker")
        #expect(model.entries["environment.wind.angleApparent"]?.first?.timestamp == "2025-06-21T10:00:00.000Z")
    }

    @Test("an invalid fix or a void wind reading is not taken")
    func invalid() throws {
        var model = SignalKModel(urn: urn)
        model.observe(
            try sentence("GPRMC,100000.00,V,5046.7998,N,00117.9999,W,3.43,115.7,210626,,,N"), input: "gps", at: 0,
            unixTime: 0)
        model.observe(try sentence("WIMWV,40.0,R,10.0,N,V"), input: "wind", at: 0, unixTime: 0)
        #expect(model.entries.isEmpty && !model.hasUpdates)
    }

    @Test("a value passed through is withdrawn (null) when its timeout passes; a derived one as soon as it is gone")
    func withdrawal() throws {
        var model = SignalKModel(urn: urn)
        model.observe(try sentence("WIMWV,40.0,R,10.0,N,A"), input: "wind", at: 0, unixTime: 100)
        var values = InstrumentValues()
        values.trueWind = RelativeWind(angle: 50, speed: 6)
        model.update(values, alarms: [], at: 0, unixTime: 100)
        _ = model.takeUpdates()
        model.expire(at: 4.9, unixTime: 104.9)
        #expect(!model.hasUpdates, "5 s for wind: not yet")
        model.expire(at: 5.1, unixTime: 105.1)
        let gone = model.takeUpdates()
        #expect(gone.map(\.path) == ["environment.wind.angleApparent", "environment.wind.speedApparent"])
        #expect(gone.allSatisfy { $0.value == .null && $0.source == "wind.WI" })
        #expect(model.entries["environment.wind.angleApparent"] == nil)
        model.update(InstrumentValues(), alarms: [], at: 5.2, unixTime: 105.2)
        let derived = model.takeUpdates()
        #expect(derived.map(\.path) == ["environment.wind.angleTrueWater", "environment.wind.speedTrue"])
        #expect(derived.allSatisfy { $0.value == .null && $0.source == SignalKModel.computedSource })
        #expect(model.delta(derived).contains(#""value":null"#))
    }

    @Test("alarms are notifications: sent when they change, with state and method")
    func alarms() {
        var model = SignalKModel(urn: urn)
        var alarm = AlarmStatus(
            path: "heel.over", number: 101, isActive: false, isAcknowledged: false, message: "Heel over 25 deg")
        model.update(InstrumentValues(), alarms: [alarm], at: 0, unixTime: 0)
        #expect(model.takeUpdates().map(\.path) == ["notifications.heel.over"])
        model.update(InstrumentValues(), alarms: [alarm], at: 1, unixTime: 1)
        #expect(!model.hasUpdates, "unchanged: not sent again")
        alarm.isActive = true
        model.update(InstrumentValues(), alarms: [alarm], at: 2, unixTime: 2)
        #expect(
            model.takeUpdates().first?.value
                == .notification(state: "alarm", method: ["visual", "sound"], message: "Heel over 25 deg"))
        alarm.isAcknowledged = true
        model.update(InstrumentValues(), alarms: [alarm], at: 3, unixTime: 3)
        #expect(
            model.takeUpdates().first?.value
                == .notification(state: "warn", method: ["visual"], message: "Heel over 25 deg"))
    }

    @Test("the full model nests paths, keeps every source, and its branches answer (or not)")
    func fullModel() throws {
        var model = SignalKModel(urn: urn, name: "Arrow")
        model.observe(try sentence("WIMWV,40.0,R,10.0,N,A"), input: "wind", at: 0, unixTime: 0)
        var values = InstrumentValues()
        values.apparentWind = RelativeWind(angle: 41, speed: 5)
        model.update(values, alarms: [], at: 1, unixTime: 1)
        let full = try #require(JSONValue.parse(model.fullModel()))
        #expect(full["self"]?.string == "vessels." + urn)
        let leaf = full["vessels"]?[urn]?["environment"]?["wind"]?["angleApparent"]
        #expect(leaf?["$source"]?.string == "telltale.computed", "the newest is the value")
        #expect(leaf?["values"]?["wind.WI"]?["value"]?.number == 0.698132)
        #expect(leaf?["meta"]?["units"]?.string == "rad")
        #expect(full["sources"]?["wind"]?["WI"]?["talker"]?.string == "WI")
        #expect(model.branch(["vessels", "self", "environment", "wind", "angleApparent", "value"]) == "0.715585")
        #expect(model.branch(["vessels", "self", "name"]) == "\"Arrow\"")
        #expect(model.branch(["vessels", "self", "environment", "nothing"]) == nil)
        #expect(model.branch(["vessels", "urn:mrn:imo:mmsi:230000000"]) == nil)
        #expect(model.branch(["nonsense"]) == nil)
    }

    @Test("the URN made from a seed is a version 4 UUID, the same for the same seed")
    func urnFromSeed() {
        let a = SignalKModel.urn(seed: "machine-1")
        #expect(a == SignalKModel.urn(seed: "machine-1") && a != SignalKModel.urn(seed: "machine-2"))
        let uuid = Array(a.dropFirst("urn:mrn:signalk:uuid:".count).utf8)
        #expect(
            uuid.count == 36 && uuid[14] == UInt8(ascii: "4")
                && [UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(uuid[19]))
    }

    @Test("timestamps are RFC 3339 UTC with milliseconds, across days and before 1970")
    func timestamps() {
        #expect(SignalKTime.text(unixTime: 0) == "1970-01-01T00:00:00.000Z")
        #expect(SignalKTime.text(unixTime: 1_782_036_000.5) == "2026-06-21T10:00:00.500Z")
        #expect(SignalKTime.text(unixTime: -0.001) == "1969-12-31T23:59:59.999Z")
    }
}
