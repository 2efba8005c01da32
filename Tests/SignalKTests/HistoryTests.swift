import Engine
import Marine
import Testing

@testable import SignalK

@Suite struct HistoryTests {
    let degree = Double.pi / 180

    @Test("wind: 10-second buckets, speed averaged, direction averaged as a vector across north")
    func windBuckets() {
        var history = History()
        for second in 0...20 {
            let direction = (second % 2 == 0 ? 350 : 10) * degree
            history.record(
                trueWindSpeed: Double(second % 2 == 0 ? 4 : 6), direction: direction, heel: 0, at: Double(second))
        }
        // Buckets [0, 10) and [10, 20) are closed; the sample at 20 opened the third.
        #expect(history.trueWindSpeed.count == 2)
        #expect(history.trueWindSpeed.allSatisfy { abs($0! - 5) < 1e-9 })
        for direction in history.trueWindDirection {
            let d = direction! / degree
            #expect(d < 0.01 || d > 359.99, "north, not south: \(d)")
        }
    }

    @Test("gaps stay empty: no wind for a minute leaves empty buckets, no heel leaves empty seconds")
    func gaps() {
        var history = History()
        history.record(trueWindSpeed: 5, direction: 0, heel: 0.1, at: 0)
        history.record(trueWindSpeed: nil, direction: nil, heel: nil, at: 1)
        history.record(trueWindSpeed: 7, direction: 0, heel: 0.2, at: 35)
        #expect(history.trueWindSpeed.map { $0 == nil } == [false, true, true])
        #expect(history.trueWindSpeed[0] == 5)
        #expect(history.heelSamples.count == 36)
        #expect(history.heelSamples.first! == 0.1 && history.heelSamples.last! == 0.2)
        #expect(history.heelSamples[1] == nil && history.heelSamples[20] == nil)
        #expect(history.json().contains(#""speedTrue":[5,null,null]"#))
    }

    @Test("the sparklines: speed and depth a second at a time for 3 minutes, gaps empty, in the JSON the panel reads")
    func traces() {
        var history = History()
        let speed = History.tracePaths.firstIndex(of: "navigation.speedThroughWater")!
        let depth = History.tracePaths.firstIndex(of: "environment.depth.belowTransducer")!
        for second in 0..<400 {
            var values = [Double?](repeating: nil, count: History.tracePaths.count)
            values[speed] = Double(second)
            values[depth] = second == 399 ? nil : 12.5
            history.record(trueWindSpeed: nil, direction: nil, heel: nil, traces: values, at: Double(second))
        }
        let kept = history.trace("navigation.speedThroughWater")
        #expect(kept.count == History.traceSeconds && kept.first! == 220 && kept.last! == 399)
        #expect(history.trace("environment.depth.belowTransducer").last! == nil)
        #expect(history.trace("performance.velocityMadeGood").allSatisfy { $0 == nil })
        #expect(history.json().contains(#""traceInterval":1.0,"traces":{"navigation.speedThroughWater":[220,221,"#))
    }

    @Test("bounded: the rings keep an hour of wind and five minutes of heel, oldest dropped")
    func bounded() {
        var history = History()
        for second in 0..<(2 * 3600) {
            history.record(trueWindSpeed: Double(second), direction: 1, heel: Double(second), at: Double(second))
        }
        #expect(history.trueWindSpeed.count == History.windBuckets)
        #expect(history.heelSamples.count == History.heelSeconds)
        #expect(history.heelSamples.last! == Double(2 * 3600 - 1))
        // The newest closed bucket holds the seconds 7180...7189.
        #expect(history.trueWindSpeed.last! == 7184.5)
    }

    @Test("the model samples its own current values at each update")
    func fromModel() throws {
        var model = SignalKModel(urn: "urn:mrn:signalk:uuid:6b0e776f-811a-4b35-980e-b93405371bc5")
        #expect(model.history.heelSamples.isEmpty)
        model.update(InstrumentValues(), alarms: [], at: 0, unixTime: 0)
        var values = InstrumentValues()
        values.trueWindDirection = 270
        model.update(values, alarms: [], at: 1, unixTime: 1)
        model.update(values, alarms: [], at: 11, unixTime: 11)
        #expect(model.history.heelSamples.count == 12 && model.history.heelSamples.allSatisfy { $0 == nil })
        #expect(model.history.trueWindSpeed == [nil], "no true wind speed in the values")
        #expect(abs(model.history.trueWindDirection[0]! - 270 * degree) < 1e-9)
    }
}
