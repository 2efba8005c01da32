import SignalK
import Testing

@testable import Fleet

/// One boat's values as its owner's panel reads them ashore: each value's age by the boat's own clock plus the
/// shore's silence, the link and the alarms; nothing for a boat never heard.
@Suite struct FleetModelBoatTests {
    static func value(_ json: String, _ time: String) -> [UInt8] {
        Array("{\"value\":\(json),\"timestamp\":\"2019-06-21T10:\(time).000Z\",\"$source\":\"gps.GP\"}".utf8)
    }

    @Test("ages by the boat's clock (a replay of 2019 read in 2026), plus the seconds since the shore heard it")
    func ages() throws {
        var model = FleetModel()
        #expect(model.boatJSON("arrow", at: 100) == nil)
        model.take(topic: "telltale/arrow/online", payload: Array("true".utf8), at: 1_000)
        model.take(
            topic: "telltale/arrow/navigation/position",
            payload: Self.value(#"{"latitude":50.1,"longitude":-1.3}"#, "00:40"),
            at: 1_000)
        model.take(
            topic: "telltale/arrow/environment/depth/belowTransducer", payload: Self.value("4.2", "00:10"), at: 1_000)
        model.take(
            topic: "telltale/arrow/alarms",
            payload: Array(#"[{"path":"notifications.depth","state":"alarm","message":"Shallow <b>"}]"#.utf8), at: 1_001
        )
        let text = try #require(model.boatJSON("arrow", at: 1_013))
        let json = try #require(JSONValue.parse(Array(text.utf8), maximumDepth: 6))
        #expect(json["boat"]?.string == "arrow" && json["online"] == .bool(true))
        #expect(json["silent"]?.number == 12, "heard last at 1,001 (the alarms), asked at 1,013")
        // 2019-06-21T10:00:40Z, her newest value, and the 12 s since: her clock now.
        #expect(json["clock"]?.number == 1_561_111_252.0)
        guard case .array(let values)? = json["values"] else {
            Issue.record("no values: \(text)")
            return
        }
        let byPath = Dictionary(uniqueKeysWithValues: values.compactMap { v in v["path"]?.string.map { ($0, v) } })
        #expect(byPath["navigation.position"]?["age"]?.number == 12, "the newest value: the silence alone")
        #expect(byPath["environment.depth.belowTransducer"]?["age"]?.number == 42, "30 s older by the boat's clock")
        #expect(byPath["environment.depth.belowTransducer"]?["value"]?.number == 4.2)
        #expect(byPath["navigation.position"]?["value"]?["latitude"]?.number == 50.1)
        guard case .array(let alarms)? = json["alarms"] else {
            Issue.record("no alarms: \(text)")
            return
        }
        #expect(alarms.first?["message"]?.string == "Shallow <b>", "the boat's text as text, the panel shows it so")
        #expect(model.boatJSON("other", at: 1_013) == nil)
    }

    @Test("a value whose time cannot be read is as old as the silence; a withdrawn value is null")
    func unreadable() throws {
        var model = FleetModel()
        model.take(
            topic: "telltale/arrow/navigation/speedOverGround",
            payload: Array(#"{"value":3.1,"timestamp":"yesterday","$source":"gps.GP"}"#.utf8), at: 50)
        model.take(
            topic: "telltale/arrow/navigation/courseOverGroundTrue",
            payload: Array(#"{"value":null,"timestamp":"2019-06-21T10:00:00.000Z","$source":"gps.GP"}"#.utf8), at: 50)
        let text = try #require(model.boatJSON("arrow", at: 55))
        #expect(text.contains(#""path":"navigation.speedOverGround","value":3.1,"timestamp":"yesterday","age":5"#))
        #expect(text.contains(#""path":"navigation.courseOverGroundTrue","value":null"#))
        #expect(text.contains(#""online":null"#))
    }
}
