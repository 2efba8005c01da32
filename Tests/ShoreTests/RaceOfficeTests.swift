import Fleet
import Marine
import SignalK
import TestSupport
import Testing

@testable import Gateway
@testable import Shore

/// The race office on a store: a race read a few boats a turn (answering meanwhile), the same standings as the whole
/// tracks give, positions followed as they come, and a late batch making its boat read again.
@Suite struct RaceOfficeTests {
    static let gun = 1_795_700_000.0

    static func geo(_ x: Double, _ y: Double) -> (Double, Double) { (50.76 + y / 111_200, -1.30 + x / 70_300) }

    static let course = RaceCourse(
        name: "Office", start: gun, line: (point(-100, 0), point(100, 0)),
        marks: [RaceCourse.Mark(name: "Top", point: point(0, 1000), zone: 100)])

    static func point(_ x: Double, _ y: Double) -> GeoPoint {
        let (lat, lon) = geo(x, y)
        return GeoPoint(latitude: lat, longitude: lon)
    }

    /// Boat b: from 60 m below the line up to 40 m past the mark and back, at 3 + b / 20 m/s, a position every 10 s.
    static func track(_ b: Int, until end: Double) -> [(Double, Double, Double)] {
        let speed = 3 + Double(b) / 20
        let x0 = Double(b * 4 - 80)
        var out: [(Double, Double, Double)] = []
        var t = gun - 300
        while t <= end {
            var d = max(0, (t - (gun - 60 / speed)) * speed)
            var y = -60.0
            var x = x0
            if d <= 1100 {
                y += d
                x = x0 * (1 - d / 1100)
            } else {
                d = min(d - 1100, 1100)
                y = 1040 - d
                x = x0 * d / 1100
            }
            let (lat, lon) = geo(x, y)
            out.append((t, lat, lon))
            t += 10
        }
        return out
    }

    static func batches(_ b: Int, _ points: [(Double, Double, Double)], from seq: UInt64) -> [FleetStore.Item] {
        stride(from: 0, to: points.count, by: 6).enumerated().map { n, i in
            let chunk = points[i..<min(i + 6, points.count)]
            let batch = UplinkBatch(
                boat: "b\(b)", sequence: seq + UInt64(n),
                samples: chunk.map { t, lat, lon in
                    UplinkSample(
                        path: "navigation.position", value: .position(latitude: lat, longitude: lon),
                        timestamp: SignalKTime.text(unixTime: t), source: "gps")
                })
            return .batch(batch, received: chunk.last!.0 + 1)
        }
    }

    @Test("a race read 25 boats a turn gives the standings of the whole tracks; positions followed; a late one re-read")
    func office() throws {
        let store = try FleetStore(temporaryFolder("race-office") + "/fleet.sqlite")
        let now = Self.gun + 600
        var tracks: [String: [(Double, Double, Double)]] = [:]
        for b in 0..<40 {
            tracks["b\(b)"] = Self.track(b, until: now)
            _ = try store.write(Self.batches(b, tracks["b\(b)"]!, from: 1))
        }
        let office = RaceOffice(races: [Self.course], entries: [])
        let first = try office.standings(0, store: store, at: now)
        #expect(first.read == 25 && first.boats == 40 && first.standings.count == 25)
        office.work(store: store, at: now + 1, log: Log { _ in })
        let whole = try office.standings(0, store: store, at: now + 1)
        #expect(whole.read == 40 && whole.boats == 40)
        let expected = RaceStandings.compute(Self.course, entries: [], tracks: tracks, at: now + 1)
        #expect(whole.standings.count == 40 && expected.count == 40)
        // (The store keeps positions as the batches' JSON gives them, to 1e-7 degree: centimetres apart.)
        func close(_ a: Double?, _ b: Double?) -> Bool { a == nil ? b == nil : b != nil && abs(a! - b!) < 0.5 }
        for (a, b) in zip(whole.standings, expected) {
            #expect(a.boat == b.boat && a.status == b.status && close(a.finished, b.finished) && close(a.toGo, b.toGo))
            #expect(close(a.sailed, b.sailed) && a.placeCorrected == b.placeCorrected)
        }
        #expect(whole.standings.filter { $0.status == .finished }.count > 5)
        #expect(whole.standings.contains { $0.status == .racing && $0.rounded.count == 1 })

        // Two minutes on, the positions as the web side takes them: every boat further on, none read again.
        let later = now + 120
        var fresh: [(boat: String, time: Double, latitude: Double, longitude: Double)] = []
        for b in 0..<40 {
            let all = Self.track(b, until: later)
            tracks["b\(b)"] = all
            for (t, lat, lon) in all where t > now { fresh.append(("b\(b)", t, lat, lon)) }
        }
        office.feed(fresh, at: later)
        let followed = try office.standings(0, store: store, at: later)
        let recomputed = RaceStandings.compute(Self.course, entries: [], tracks: tracks, at: later)
        #expect(followed.read == 40)
        #expect(followed.standings.map { $0.boat } == recomputed.map { $0.boat })
        #expect(
            zip(followed.standings, recomputed).allSatisfy {
                close($0.finished, $1.finished) && close($0.toGo, $1.toGo)
            })

        // A late position (a boat's link was down): that boat is read again from the store.
        let late = Self.track(7, until: later)[20]
        office.feed([("b7", late.0, late.1, late.2)], at: later + 1)
        let pending = try office.standings(0, store: store, at: later + 1)
        #expect(pending.read == 39 && !pending.standings.contains { $0.boat == "b7" })
        office.work(store: store, at: later + 2, log: Log { _ in })
        #expect(try office.standings(0, store: store, at: later + 2).read == 40)
    }
}
