import SignalK
import Testing

@testable import Fleet

/// `telltale fleet`'s model: boats from their topics, history batches counted once with late positions put in their
/// place, the JSON the Fleet layout reads, and whatever else a broker hands it refused and counted, within bounds.
@Suite struct FleetModelTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func position(_ lat: Double, _ lon: Double, _ second: Int) -> String {
        "{\"value\":{\"latitude\":\(lat),\"longitude\":\(lon)},\"timestamp\":\"2026-11-25T10:00:\(second < 10 ? "0" : "")\(second).000Z\",\"$source\":\"gps.GP\"}"
    }

    static func batch(_ boat: String, _ seq: Int, late: Bool, positions: [(Double, Double, Int)]) -> [UInt8] {
        let batch = UplinkBatch(
            boat: boat, sequence: UInt64(seq), late: late,
            samples: positions.map { lat, lon, second in
                UplinkSample(
                    path: "navigation.position", value: .position(latitude: lat, longitude: lon),
                    timestamp: "2026-11-25T10:00:\(second < 10 ? "0" : "")\(second).000Z", source: "gps.GP")
            })
        return bytes(batch.json)
    }

    @Test("values, online, alarms; a batch sent twice counted once; a late batch's positions in their place in time")
    func boats() throws {
        var model = FleetModel()
        model.take(topic: "telltale/arrow/online", payload: Self.bytes("true"), at: 100)
        model.take(
            topic: "telltale/arrow/navigation/position", payload: Self.bytes(Self.position(50.1, -1.2, 30)), at: 100)
        model.take(
            topic: "telltale/arrow/environment/wind/speedTrue",
            payload: Self.bytes(
                "{\"value\":7.5,\"timestamp\":\"2026-11-25T10:00:30.000Z\",\"$source\":\"telltale.computed\"}"),
            at: 100)
        model.take(
            topic: "telltale/arrow/alarms",
            payload: Self.bytes("[{\"path\":\"notifications.depth\",\"state\":\"alarm\",\"message\":\"Shallow\"}]"),
            at: 101)
        // The backlog after a cut: positions from before the live one, late.
        let late = Self.batch("arrow", 7, late: true, positions: [(50.0, -1.2, 10), (50.05, -1.2, 20)])
        model.take(topic: "telltale/arrow/history", payload: late, at: 102)
        model.take(topic: "telltale/arrow/history", payload: late, at: 103)
        let boat = try #require(model.boats["arrow"])
        #expect(boat.online == true && boat.alarms.map(\.message) == ["Shallow"])
        #expect(boat.track.map(\.latitude) == [50.0, 50.05, 50.1], "in time order, the late ones before the live one")
        #expect(boat.samples == 2 && boat.late == 2 && boat.duplicates == 1)
        #expect(boat.heard == 103)
        let json = model.json(at: 110)
        #expect(json.contains("\"id\":\"arrow\"") && json.contains("\"environment.wind.speedTrue\":7.5"))
        #expect(json.contains("\"age\":7") && json.contains("\"track\":[[50,-1.2],[50.05,-1.2],[50.1,-1.2]]"))
        #expect(model.refused == 0)
        model.take(
            topic: "telltale/arrow/history", payload: Self.batch("arrow", 10, late: false, positions: []), at: 104)
        #expect(model.json(at: 110).contains("\"lastBatch\":10,\"missingBatches\":2"), "8 and 9 never came")
    }

    @Test("what is not a boat's topic or value is refused and counted; boats and values bounded")
    func refused() {
        var model = FleetModel()
        let bad: [(String, String)] = [
            ("other/arrow/navigation/position", Self.position(1, 1, 0)),
            ("telltale/a+b/navigation/position", Self.position(1, 1, 0)),
            ("telltale/arrow", "true"),
            ("telltale/arrow/online", "maybe"),
            ("telltale/arrow/history", "{\"boat\":\"other\",\"seq\":1,\"samples\":[]}"),
            ("telltale/arrow/history", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["),
            ("telltale/arrow/alarms", "{}"),
            ("telltale/arrow/navigation/position", "{\"value\":1}"),
            ("telltale/arrow/navigation/position", String(repeating: "x", count: 2 << 20)),
        ]
        for (topic, payload) in bad { model.take(topic: topic, payload: Self.bytes(payload), at: 0) }
        #expect(model.refused == bad.count && model.boats.isEmpty, "each refused, no boat made by one")
        for index in 0..<(FleetModel.maximumBoats + 20) {
            model.take(topic: "telltale/boat\(index)/online", payload: Self.bytes("true"), at: 0)
        }
        #expect(model.boats.count == FleetModel.maximumBoats)
        for index in 0..<(FleetModel.maximumPaths + 20) {
            model.take(
                topic: "telltale/boat0/x/p\(index)", payload: Self.bytes("{\"value\":1,\"timestamp\":\"t\"}"), at: 0)
        }
        #expect(model.boats["boat0"]!.values.count == FleetModel.maximumPaths)
    }

    @Test("a long track: bounded in memory, the whole voyage on the chart in a few hundred points, the last kept")
    func longTrack() {
        var model = FleetModel()
        for second in 0..<5000 {
            let hour = second / 3600
            let minute = (second / 60) % 60
            let rest = second % 60
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            model.take(
                topic: "telltale/arrow/navigation/position",
                payload: Self.bytes(
                    "{\"value\":{\"latitude\":\(50 + Double(second) / 10000),\"longitude\":-1},"
                        + "\"timestamp\":\"2026-11-25T1\(hour):\(two(minute)):\(two(rest)).000Z\"}"),
                at: Double(second))
        }
        let track = model.boats["arrow"]!.track
        #expect(track.count <= FleetModel.trackPoints && track.first!.latitude == 50)
        let shown = FleetModel.thinned(track, to: 300)
        #expect(shown.count <= 300 && shown.count > 250)
        #expect(shown.first!.latitude == track.first!.latitude && shown.last!.latitude == track.last!.latitude)
        #expect(FleetModel.thinned(Array(0..<10), to: 300) == Array(0..<10))
        #expect(FleetModel.thinned(Array(0..<1000), to: 4) == [0, 333, 666, 999])
    }
}
