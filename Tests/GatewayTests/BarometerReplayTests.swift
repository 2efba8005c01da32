import Engine
import Gateway
import NMEA
import Router
import SignalK
import TestSupport
import Testing

/// A recorded falling barometer (Fixtures/barometer/falling.nmea, written by make.py beside it): the pressure-fall
/// alarm raised when the three-hour fall reaches 3 hPa, at the time worked by hand in make.py, and not before.
@Suite struct BarometerReplayTests {
    let log = projectFixtures() + "/barometer/falling.nmea"
    static let start = 1_782_000_000.0

    @Test("the pressure-fall alarm at 16,260 s, the first tick after the three-hour fall reaches 3 hPa")
    func alarmTime() throws {
        var configuration = EngineConfiguration()
        configuration.kinds = [.alarm, .alarmText]
        configuration.echoWindow = 0
        var options = ReplayRunner.Options()
        options.speed = nil
        options.computedOnly = true
        options.tagTime = true
        options.signalK = SignalKModel(urn: SignalKModel.urn(seed: "barometer"))
        options.signalKRate = 1
        var out: [UInt8] = []
        var deltas: [UInt8] = []
        _ = ReplayRunner(engine: Engine(configuration: configuration), options: options).run(
            [try Recording.read(log)], imu: nil, write: { out.append(contentsOf: $0) },
            writeDeltas: { deltas.append(contentsOf: $0) })
        let raised = String(decoding: out, as: UTF8.self).split(separator: "\r\n").filter {
            $0.contains(",181,A,V,")
        }
        let first = try #require(raised.first)
        let tag = first.dropFirst(3).prefix { $0 != "*" }
        let seconds = try #require(Double(tag)) / 1000 - Self.start
        #expect(seconds == 16_260, "raised at \(seconds) s")
        #expect(first.contains("Barometer falling 3.0 hPa in 3 h"))
        // Signal K: the pressure as measured, the tendency in the weather API's words, the alarm as a notification.
        let text = String(decoding: deltas, as: UTF8.self)
        #expect(text.contains(#""path":"environment.outside.pressure","value":101500"#))
        #expect(text.contains(#""path":"environment.outside.pressureTendency","value":"decreasing""#))
        #expect(text.contains(#""path":"telltale.weather.tendency","value":"falling""#))
        #expect(text.contains(#""path":"notifications.environment.outside.pressure","value":{"state":"alarm""#))
    }
}
