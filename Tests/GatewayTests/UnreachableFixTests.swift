import Marine
import Platform
import TestSupport
import Testing

@testable import Gateway

/// A fix no boat could reach from the one before, through the real runtime on a real TCP socket: refused, said in the
/// log, not passed through; a looping log's first fix of a lap taken wherever the lap ends. And any implausible
/// sentence on a live input: from 2026-11-24 to 2026-12-03 the first one stopped the gateway (the runtime asked the
/// router for the input's name while the router was taking the sentence: an access conflict, fatal).
@Suite(.serialized) struct UnreachableFixTests {
    /// RMC each of `seconds` (of 10:00 UTC), eastwards at 75 kn (38.6 m/s) from the Solent; `glitch` the seconds
    /// whose longitude is corrupted to 99°59.99' W (the checksum made good).
    static func log(_ seconds: Range<Int>, glitch: Set<Int> = []) -> String {
        var text = ""
        for second in seconds {
            let point = Geodesic.wgs84.direct(
                from: GeoPoint(latitude: 50.78, longitude: -1.30), azimuth: 90, distance: 38.6 * Double(second)
            ).point
            let minutes = (-point.longitude - 1) * 60
            let longitude = glitch.contains(second) ? "09959.990" : "001" + FixedDecimal.text(minutes, decimals: 4)
            let stamp = "1000" + (second < 10 ? "0" : "") + "\(second).00"
            text += checksummed("GPRMC,\(stamp),A,5046.8000,N,\(longitude),W,75.0,90.0,210626,,,A") + "\r\n"
        }
        return text
    }

    /// The runtime on `log` for `duration` seconds: the RMC it passed through, and what it said.
    func run(_ log: String, loop: Bool, duration: Double) throws -> (rmc: [String], said: [String]) {
        let folder = temporaryFolder("unreachable-fix")
        try POSIX.writeFileAtomically(folder + "/log.nmea", Array(log.utf8))
        let text = """
            status_line = false
            [[input]]
            name = "gps"
            url = "file:\(folder)/log.nmea"
            speed = 10
            loop = \(loop)
            """
        var configuration = try ConfigurationFile.parse(text, base: folder)
        var output = OutputConfiguration(name: "tcp", endpoint: .tcp(host: "127.0.0.1", port: 0))
        output.computed = false
        configuration.outputs = [output]
        let messages = MessageBox()
        let runtime = try Runtime(configuration: configuration) { messages.append($0.message) }
        let reader = LoopbackClient(port: try #require(runtime.tcpPorts["tcp"]), receiveBuffer: 1 << 20)
        runtime.run(duration: duration)
        reader.drain()
        let rmc = String(decoding: reader.bytes, as: UTF8.self).split(separator: "\r\n").map(String.init).filter {
            $0.hasPrefix("$GPRMC")
        }
        return (rmc, messages.items.filter { $0.contains("implausible") })
    }

    @Test("a corrupted RMC 3,450 NM off the track: refused, said once, not passed through; the track goes on")
    func glitch() throws {
        let (rmc, said) = try run(Self.log(0..<12, glitch: [5]), loop: false, duration: 1.6)
        #expect(rmc.count == 11 && !rmc.contains { $0.contains("09959.990") }, "\(rmc)")
        #expect(said.count == 1 && said[0].contains("input gps: implausible position"), "\(said)")
    }

    @Test("a wind of 99999 kn and a heading of 400° with good checksums: refused, said, and the gateway runs on")
    func implausibleLive() throws {
        var log = Self.log(0..<12)
        log += checksummed("WIMWV,40.0,R,99999,N,A") + "\r\n" + checksummed("HEHDT,400.0,T") + "\r\n"
        log += Self.log(12..<15)
        let (rmc, said) = try run(log, loop: false, duration: 2)
        #expect(rmc.count == 15, "the RMC after them passed through too: \(rmc.count)")
        #expect(said.contains { $0.contains("input gps: implausible wind speed") }, "\(said)")
    }

    @Test("a looping log whose lap ends 386 m from where it starts: every lap's first fix passed through")
    func loop() throws {
        let (rmc, said) = try run(Self.log(0..<11), loop: true, duration: 2.6)
        let firsts = rmc.filter { $0.hasPrefix("$GPRMC,100000.00") }
        #expect(firsts.count >= 2 && rmc.count >= 22, "\(firsts.count) laps begun, \(rmc.count) RMC")
        #expect(said.isEmpty, "\(said)")
    }
}
