import Marine
import NMEA
import Testing

@testable import Engine

/// The anchor watch through the engine: dropped at the bow, the boat swinging inside the circle, a drag raising the
/// alarm within the hold time, a GPS jump of one fix raising nothing, the circle from the chain, the watch raised.
@Suite struct AnchorTests {
    typealias Scenario = AlarmTests.Scenario
    static let anchorage = GeoPoint(latitude: 50.7700, longitude: -1.3000)

    /// A fix `metres` from the anchorage towards `bearing`, with a heading of `heading`, and a depth of 5 m.
    static func lying(_ metres: Double, _ bearing: Double, at t: Double, heading: Double = 180) -> [Sentence] {
        let point = Geodesic.wgs84.direct(from: anchorage, azimuth: bearing, distance: metres).point
        return [AlarmTests.fix(point, at: t), trueHeading(heading), encoded(DPT(depth: 5, offset: 0), talker: "SD")]
    }

    static func scenario(hold: Double = 20) -> Scenario {
        Scenario { configuration in
            configuration.anchor.hold = hold
            configuration.bowOffset = 0
        }
    }

    @Test("swinging inside the circle raises nothing; dragging out of it raises the alarm within the hold time")
    func drag() throws {
        var s = Self.scenario()
        s.run(until: 5, step: 0.5) { t in Int(t * 2) % 2 == 0 ? Self.lying(0, 0, at: t) : [] }
        #expect(s.status(AlarmKind.anchorDrag.path) == nil, "not listed before an anchor is down")
        let outcome = s.engine.apply(.anchor(.drop(radius: 30)), at: s.time)
        #expect(outcome.isDone, "\(outcome.message)")
        let set = try #require(s.engine.anchor.set)
        #expect(Geodesic.wgs84.inverse(set.position, Self.anchorage).distance < 0.5)
        #expect(set.radius == 30 && set.depth == 5)
        // Ten minutes swinging on 20 to 28 m of the anchor, the bearing wandering with the wind.
        s.run(until: 605, step: 0.5) { t in
            Int(t * 2) % 2 == 0 ? Self.lying(24 + 4 * sin(t / 40), 180 + 40 * sin(t / 90), at: t) : []
        }
        #expect(s.status(AlarmKind.anchorDrag.path)?.isActive == false)
        #expect(s.alarms(171).isEmpty)
        // Then it drags south at half a metre a second: out of the 30 m circle at about t = 617 s.
        var crossed: Double?
        s.run(until: 700, step: 0.5) { t in
            let metres = 24 + 0.5 * (t - 605)
            if metres > 30 && crossed == nil { crossed = t }
            return Int(t * 2) % 2 == 0 ? Self.lying(metres, 180, at: t) : []
        }
        let raisedAt = try #require(s.sent.first { $0.text.contains("ALR") && $0.text.contains(",171,A,") }?.time)
        let crossing = try #require(crossed)
        #expect(raisedAt >= crossing + 20 - 0.5, "not before the hold time")
        #expect(raisedAt <= crossing + 20 + 2.5, "within the hold time and the median's fix: \(raisedAt - crossing)")
        #expect(s.said.contains { $0.hasPrefix("anchor dragging,") && $0.hasSuffix("metres from the anchor") })
        #expect(s.texts().contains { $0.hasPrefix("ALARM: Anchor dragging:") })
        #expect(s.engine.values.anchor?.distance.map { $0 > 60 } == true)
        // Raised: the alarm clears, the watch is gone.
        #expect(s.engine.apply(.anchor(.raise), at: s.time).isDone)
        s.run(until: 702, step: 0.5) { t in Int(t * 2) % 2 == 0 ? Self.lying(70, 180, at: t) : [] }
        #expect(s.status(AlarmKind.anchorDrag.path)?.isActive == false)
        #expect(s.engine.values.anchor == nil)
    }

    @Test("a GPS jump of 100 m for one fix is no drag, even with no hold time; five fixes that agree are a move")
    func jump() {
        var s = Self.scenario(hold: 0)
        s.run(until: 5, step: 0.5) { t in Int(t * 2) % 2 == 0 ? Self.lying(10, 180, at: t) : [] }
        _ = s.engine.apply(.anchor(.position(Self.anchorage)), at: s.time)
        _ = s.engine.apply(.anchor(.radius(30)), at: s.time)
        s.run(until: 120, step: 0.5) { t in
            guard Int(t * 2) % 2 == 0 else { return [] }
            return Self.lying(t == 60 ? 110 : 10, 180, at: t)
        }
        #expect(s.alarms(171).isEmpty, "one wild fix moved nothing")
        #expect(s.engine.anchor.jumps == 1)
        #expect(s.engine.values.anchor?.distance.map { abs($0 - 10) < 1 } == true)
        // The antenna really is 100 m off (the boat towed away): after five agreeing fixes it is taken.
        s.run(until: 140, step: 0.5) { t in Int(t * 2) % 2 == 0 ? Self.lying(110, 180, at: t) : [] }
        #expect(s.status(AlarmKind.anchorDrag.path)?.isActive == true)
    }

    @Test("the circle from the chain: the reach at the depth and the bow's height, the bow's offset, the margin")
    func rode() throws {
        var s = Scenario { configuration in
            configuration.bowOffset = 4
            configuration.anchor.bowHeight = 1
            configuration.anchor.margin = 5
        }
        s.run(until: 3, step: 0.5) { t in Int(t * 2) % 2 == 0 ? Self.lying(0, 0, at: t, heading: 90) : [] }
        // No anchor yet: it is placed the chain's reach ahead of the bow (east), the circle around it.
        #expect(s.engine.apply(.anchor(.rode(30)), at: s.time).isDone)
        let set = try #require(s.engine.anchor.set)
        let reach = (30.0 * 30 - 6 * 6).squareRoot()
        #expect(abs(set.radius - (reach + 4 + 5)) < 0.01)
        #expect(set.rode == 30)
        let leg = Geodesic.wgs84.inverse(Self.anchorage, set.position)
        #expect(abs(leg.distance - (reach + 4)) < 0.5 && abs(leg.initialAzimuth - 90) < 1)
        // More chain: a wider circle about the same anchor; a radius by hand forgets the chain.
        #expect(s.engine.apply(.anchor(.rode(40)), at: s.time).isDone)
        #expect(s.engine.anchor.set?.position == set.position)
        #expect(s.engine.apply(.anchor(.radius(50)), at: s.time).isDone)
        #expect(s.engine.anchor.set?.rode == nil && s.engine.anchor.set?.radius == 50)
        // Nothing that cannot be true.
        #expect(!s.engine.apply(.anchor(.radius(0.2)), at: s.time).isDone)
        #expect(!s.engine.apply(.anchor(.radius(.nan)), at: s.time).isDone)
        #expect(!s.engine.apply(.anchor(.rode(-3)), at: s.time).isDone)
        #expect(!s.engine.apply(.anchor(.position(GeoPoint(latitude: 91, longitude: 0))), at: s.time).isDone)
        #expect(
            !s.engine.apply(.anchor(.restore(AnchorSet(position: set.position, radius: 1e9, droppedAt: 0))), at: s.time)
                .isDone)
    }

    @Test("radius without a number: as far as the boat lies now and the margin; refused with no anchor or no fix")
    func radiusFromHere() {
        var s = Self.scenario()
        #expect(!s.engine.apply(.anchor(.drop(radius: nil)), at: 0).isDone, "no fix: no anchor")
        #expect(!s.engine.apply(.anchor(.radius(nil)), at: 0).isDone, "no anchor down")
        s.run(until: 3, step: 0.5) { t in Int(t * 2) % 2 == 0 ? Self.lying(0, 0, at: t) : [] }
        #expect(s.engine.apply(.anchor(.drop(radius: nil)), at: s.time).isDone)
        #expect(s.engine.anchor.set?.radius == 40, "the configured circle")
        s.run(until: 10, step: 0.5) { t in Int(t * 2) % 2 == 0 ? Self.lying(22, 200, at: t) : [] }
        #expect(s.engine.apply(.anchor(.radius(nil)), at: s.time).isDone)
        #expect(s.engine.anchor.set.map { abs($0.radius - 27) < 0.5 } == true)
    }

    /// Found by anchor-check: Signal K shows the GPS's position as the sentence arrives, the engine took it only at
    /// its next tick, so a drop given in that tenth of a second was refused ("no position"), and a fix gone stale
    /// since the last tick would have been used.
    @Test("a command acts on the position as it is when given, not as the last tick left it")
    func positionAtTheCommand() {
        var s = Self.scenario()
        s.run(until: 1, step: 0.5) { _ in [] }
        let source = s.engine.source(named: "bus")
        for sentence in Self.lying(0, 0, at: 1.02) { s.engine.ingest(sentence, from: source, at: 1.02) }
        #expect(s.engine.apply(.anchor(.drop(radius: nil)), at: 1.03).isDone, "the fix of 20 ms ago, before a tick")
        #expect(s.engine.anchor.set.map { Geodesic.wgs84.inverse($0.position, Self.anchorage).distance < 1 } == true)
        #expect(s.engine.apply(.anchor(.raise), at: 1.04).isDone)
        s.time = 1.5
        s.run(until: 2, step: 0.5) { _ in [] }
        #expect(s.engine.values.position != nil, "the tick took the fix")
        #expect(!s.engine.apply(.anchor(.drop(radius: nil)), at: 60).isDone, "a minute on, no fix since: refused")
    }

    @Test("the anchor's words: what the command line and Signal K send read back as the same command")
    func words() {
        let commands: [AnchorCommand] = [
            .drop(radius: nil), .drop(radius: 35), .raise, .radius(nil), .radius(42.5), .rode(30),
        ]
        for command in commands {
            #expect(command.words.flatMap(AnchorCommand.parse) == command, "\(command)")
        }
        for bad in ["", "drop x", "raise 3", "rode", "radius 1 2", "hoist", "drop nan"] {
            #expect(AnchorCommand.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("the track follows each fix once, thinned to the spacing; the swing track starts at the drop")
    func track() {
        var s = Self.scenario()
        s.run(until: 100, step: 0.5) { t in
            Int(t * 2) % 2 == 0
                ? [
                    AlarmTests.fix(
                        Geodesic.wgs84.direct(from: Self.anchorage, azimuth: 0, distance: 2.5 * t).point, at: t)
                ] : []
        }
        // 2.5 m a second, a point each 10 m: about one in four fixes.
        let points = s.engine.track.points
        #expect(points.count >= 24 && points.count <= 27, "\(points.count)")
        #expect(points.first?.startsSegment == true && points.dropFirst().allSatisfy { !$0.startsSegment })
        #expect(s.engine.apply(.clearTrack, at: s.time).isDone)
        #expect(s.engine.track.points.isEmpty)
    }
}
