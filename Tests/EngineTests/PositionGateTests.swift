import Marine
import NMEA
import TestSupport
import Testing

@testable import Engine

/// A fix no boat could have reached from the one before (a receiver's glitch, a corrupted line with a valid checksum)
/// is refused and nothing is computed from it; fixes that go on agreeing elsewhere are a real move.
@Suite struct PositionGateTests {
    static let solent = GeoPoint(latitude: 50.7832, longitude: -1.3079)

    /// `metres` from the Solent point, due east.
    static func east(_ metres: Double) -> GeoPoint {
        Geodesic.wgs84.direct(from: solent, azimuth: 90, distance: metres).point
    }

    @Test("a boat at 8 kn, a receiver's 200 m multipath jump and a fast boat's 60 kn are taken")
    func possible() {
        var gate = PositionGate()
        func admits(_ point: GeoPoint, at time: Double) -> Bool { gate.admits(point, at: time) }
        var metres = 0.0
        for second in 0..<60 {
            metres += 4.1
            #expect(admits(Self.east(metres), at: Double(second)))
        }
        #expect(admits(Self.east(metres + 200), at: 60))
        #expect(admits(Self.east(metres), at: 61))
        for second in 62..<80 {
            metres += 30.9
            #expect(admits(Self.east(metres), at: Double(second)), "60 kn at \(second) s")
        }
        #expect(gate.refused == 0)
    }

    @Test("one fix 3,000 NM away in a second is refused; the next on the track is taken")
    func glitch() {
        var gate = PositionGate()
        func admits(_ point: GeoPoint, at time: Double) -> Bool { gate.admits(point, at: time) }
        #expect(admits(Self.solent, at: 0))
        #expect(!admits(GeoPoint(latitude: 50.775, longitude: -99.9998), at: 1))
        #expect(!admits(Self.east(1_000), at: 2), "1 km in 2 s is 970 kn")
        #expect(admits(Self.east(8), at: 3))
        #expect(gate.refused == 2)
        // After an hour without fixes the boat may be 80 NM away, not 100.
        #expect(admits(Self.east(148_000), at: 3_603))
        #expect(!admits(Self.east(148_000 + 190_000), at: 7_203))
    }

    @Test("fixes that go on agreeing away from the last one taken: the fifth is taken, and the gate follows from it")
    func move() {
        var gate = PositionGate()
        func admits(_ point: GeoPoint, at time: Double) -> Bool { gate.admits(point, at: time) }
        #expect(admits(GeoPoint(latitude: 0, longitude: 0), at: 0), "a receiver's first fix, still settling")
        for second in 1..<5 { #expect(!admits(Self.east(Double(second) * 4), at: Double(second))) }
        #expect(admits(Self.east(20), at: 5))
        #expect(admits(Self.east(24), at: 6))
        #expect(!admits(GeoPoint(latitude: 0, longitude: 0), at: 7))
        // Glitches that disagree with each other never add up to a move.
        for second in 8..<20 {
            let wild = GeoPoint(latitude: Double(second), longitude: Double(-second) * 3)
            #expect(!admits(wild, at: Double(second)))
        }
        #expect(admits(Self.east(100), at: 20))
        #expect(!admits(GeoPoint(latitude: .nan, longitude: 0), at: 21))
    }

    @Test("off the earth (latitude 95°, longitude 200°, not a number): never taken, not even as the first fix")
    func offTheEarth() {
        var gate = PositionGate()
        func admits(_ point: GeoPoint, at time: Double) -> Bool { gate.admits(point, at: time) }
        for second in 0..<6 { #expect(!admits(GeoPoint(latitude: 95.5, longitude: -1.3), at: Double(second))) }
        #expect(!admits(GeoPoint(latitude: 50.5, longitude: 200.25), at: 6))
        #expect(!admits(GeoPoint(latitude: 50.5, longitude: .infinity), at: 7))
        #expect(admits(Self.solent, at: 8))
        #expect(gate.refused == 8)
    }

    @Test("forgotten (a recording that starts again): the next fix is taken wherever it is")
    func forget() {
        var gate = PositionGate()
        func admits(_ point: GeoPoint, at time: Double) -> Bool { gate.admits(point, at: time) }
        #expect(admits(Self.solent, at: 0))
        gate.forget()
        #expect(admits(Self.east(5_000), at: 1))
        #expect(gate.refused == 0)
    }

    @Test("through the engine: the refused RMC is implausible, the position stays the boat's")
    func engine() throws {
        var engine = Engine()
        let gps = engine.source(named: "gps")
        let other = engine.source(named: "second-gps")
        func rmc(_ latitude: String, _ longitude: String, _ time: String) throws -> Sentence {
            try Sentence(parsing: checksummed("GPRMC,\(time),A,\(latitude),N,\(longitude),W,6.0,90.0,210626,,,A"))
        }
        func ingest(_ sentence: Sentence, from source: SourceID, at time: Double) -> Engine.IngestOutcome {
            engine.ingest(sentence, from: source, at: time)
        }
        #expect(ingest(try rmc("5046.9910", "00118.4765", "100000.00"), from: gps, at: 0) == .used)
        engine.tick(at: 0.1) { _, _ in }
        #expect(
            ingest(try rmc("5046.9920", "09959.9900", "100001.00"), from: gps, at: 1)
                == .invalid(.implausible(.position)))
        // Another receiver is judged against its own fixes.
        #expect(ingest(try rmc("5046.9920", "00118.4700", "100001.00"), from: other, at: 1) == .used)
        engine.tick(at: 1.1) { _, _ in }
        let position = try #require(engine.values.position)
        #expect(abs(position.point.longitude + 1.3079) < 0.001, "\(position.point)")
        #expect(engine.positionsRefused == 1)
        engine.forgetFixes(from: gps)
        #expect(ingest(try rmc("5046.9920", "09959.9900", "100002.00"), from: gps, at: 2) == .used)
    }

    @Test("gpsd's fix out of reach is refused too")
    func gpsd() {
        var engine = Engine()
        let gpsd = engine.source(named: "gpsd")
        let here = engine.ingest(Fix(point: Self.solent, mode: .autonomous), motion: nil, from: gpsd, at: 0)
        let sydney = engine.ingest(
            Fix(point: GeoPoint(latitude: -33, longitude: 151), mode: .autonomous), motion: nil, from: gpsd, at: 1)
        #expect(here && !sydney)
        #expect(engine.positionsRefused == 1)
    }
}
