import Engine
import Gateway
import Marine
import NMEA
import TestSupport
import Testing

/// The committed demo voyage (Fixtures/demo-voyage, made by Fixtures/demo-voyage/make.sh).
@Suite struct DemoVoyageTests {
    @Test("replaying the demo voyage with its route, IMU and alarm gives expected.nmea byte for byte, every time")
    func goldenReplay() throws {
        let folder = projectFixtures() + "/demo-voyage"
        let log = try RecordedLog.read(folder + "/voyage.nmea")
        let imu = try IMUFile.read(folder + "/imu.csv")
        let settings = try ConfigurationFile.load(path: folder + "/replay.toml")
        var configuration = settings.engine
        configuration.kinds = ComputedKind.standard
        configuration.echoWindow = 0
        var engine = Engine(configuration: configuration)
        var file = RouteFile(path: try #require(settings.route))
        engine.follow(try file.load())
        var options = ReplayRunner.Options()
        options.speed = nil
        options.tagTime = true
        options.computedOnly = true
        var first: [UInt8] = []
        _ = ReplayRunner(engine: engine, options: options).run([log], imu: imu) { first.append(contentsOf: $0) }
        var second: [UInt8] = []
        _ = ReplayRunner(engine: engine, options: options).run([log], imu: imu) { second.append(contentsOf: $0) }
        #expect(first == second)
        let expected = try #require(readFile(folder + "/expected.nmea"))
        let differences = GoldenComparison.differences(expected: expected, actual: first)
        #expect(differences.isEmpty, "\(differences)")
        // It exercises every computed sentence of the standard set, a waypoint switch and an alarm.
        let text = String(decoding: first, as: UTF8.self)
        for address in [
            "IIMWV", "IIMWD", "IIVPW", "IIHDT", "IIXTE", "IIBWC", "IIBWR", "IIRMB", "IIAPB", "IIWCV", "IIXDR", "IIALR",
        ] {
            #expect(text.contains("$" + address), "no \(address) in the demo replay")
        }
        #expect(text.contains(",EAST,NORTH,") && text.contains(",NORTH,FINISH,"))
        #expect(text.contains(",101,A,V,Heel over 18 deg") && text.contains(",101,V,V,Heel over 18 deg"))
    }
}
