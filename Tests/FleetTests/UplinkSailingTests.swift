import Fleet
import Marine
import SignalK
import Testing

/// A boat's sailing from what she sent ashore: Signal K's radians and metres a second into the learner's degrees and
/// knots, each value the nearest of its path within 15 s.
@Suite struct UplinkSailingTests {
    static func sample(_ path: String, _ value: SignalKValue, _ second: Int) -> UplinkSample {
        UplinkSample(
            path: path, value: value, timestamp: SignalKTime.text(unixTime: 1_780_000_000 + Double(second)),
            source: "test")
    }

    static func tenSeconds(_ second: Int, heading: Double = 1.0) -> [UplinkSample] {
        [
            sample("environment.wind.angleApparent", .number(-0.5), second),
            sample("environment.wind.speedApparent", .number(7.2), second),
            sample("navigation.headingTrue", .number(heading), second + 2),
            sample("navigation.speedThroughWater", .number(3.0), second + 1),
            sample("navigation.courseOverGroundTrue", .number(1.1), second),
            sample("navigation.speedOverGround", .number(3.1), second),
            sample("navigation.attitude", .attitude(roll: 0.2, pitch: 0, yaw: nil), second),
        ]
    }

    @Test func unitsBecomeTheLearnersAndTimesMatch() throws {
        let samples = UplinkSailing.samples(Self.tenSeconds(0) + Self.tenSeconds(10))
        #expect(samples.count == 2)
        let first = try #require(samples.first)
        #expect(abs(first.awa - (-28.6479)) < 1e-3 && abs(first.aws - 13.9957) < 1e-3)
        #expect(abs(first.stw - 5.8315) < 1e-3 && abs(first.heading - 57.2958) < 1e-3)
        #expect(abs((first.cog ?? 0) - 63.0254) < 1e-3 && abs((first.sog ?? 0) - 6.0259) < 1e-3)
        #expect(abs((first.heel ?? 0) - 11.4592) < 1e-3)
        #expect(samples[1].time - first.time == 10)
    }

    @Test func aSampleLackingItsHeadingOrABadValueIsLeftOut() {
        var uplink = Self.tenSeconds(0).filter { $0.path != "navigation.headingTrue" }
        uplink += Self.tenSeconds(100).map { s in
            s.path == "environment.wind.speedApparent" ? Self.sample(s.path, .number(.nan), 100) : s
        }
        uplink += Self.tenSeconds(200).map { s in
            s.path == "environment.wind.angleApparent" ? Self.sample(s.path, .number(9), 200) : s
        }
        #expect(UplinkSailing.samples(uplink).isEmpty)
    }

    @Test func aHeadingHeardTooLongBeforeIsNotUsed() {
        let uplink =
            Self.tenSeconds(0).filter { $0.path != "navigation.headingTrue" } + [
                Self.sample("navigation.headingTrue", .number(1), -30)
            ]
        #expect(UplinkSailing.samples(uplink).isEmpty)
    }
}
