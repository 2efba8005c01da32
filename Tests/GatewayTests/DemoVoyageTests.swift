import Engine
import Gateway
import Marine
import NMEA
import TestSupport
import Testing

/// The committed demo voyage (Fixtures/demo-voyage, made by Fixtures/demo-voyage/make.sh).
@Suite struct DemoVoyageTests {
    @Test("replaying the demo voyage with its route gives expected.nmea byte for byte, every time")
    func goldenReplay() throws {
        let folder = projectFixtures() + "/demo-voyage"
        let log = try RecordedLog.read(folder + "/voyage.nmea")
        var file = RouteFile(path: folder + "/route.gpx")
        var engine = Engine(
            configuration: {
                var configuration = EngineConfiguration()
                configuration.echoWindow = 0
                return configuration
            }())
        engine.follow(try file.load())
        var options = ReplayRunner.Options()
        options.speed = nil
        options.tagTime = true
        options.computedOnly = true
        var first: [UInt8] = []
        _ = ReplayRunner(engine: engine, options: options).run([log]) { first.append(contentsOf: $0) }
        var second: [UInt8] = []
        _ = ReplayRunner(engine: engine, options: options).run([log]) { second.append(contentsOf: $0) }
        #expect(first == second)
        let expected = try #require(readFile(folder + "/expected.nmea"))
        let differences = GoldenComparison.differences(expected: expected, actual: first)
        #expect(differences.isEmpty, "\(differences)")
        // It exercises every computed sentence of the standard set and a waypoint switch.
        let text = String(decoding: first, as: UTF8.self)
        for address in ["IIMWV", "IIMWD", "IIVPW", "IIHDT", "IIXTE", "IIBWC", "IIBWR", "IIRMB", "IIAPB", "IIWCV"] {
            #expect(text.contains("$" + address), "no \(address) in the demo replay")
        }
        #expect(text.contains(",EAST,NORTH,") && text.contains(",NORTH,FINISH,"))
    }
}
