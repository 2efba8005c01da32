import Marine
import Testing

/// The compass card against the wind (``CardCheck``): tacks in a wind from every direction, the true wind steady
/// across each, the compass reading the heading wrong by a card or not at all.
struct CardCheckTests {
    /// The compass's error (degrees it adds to the heading): 4° sin h + 2° cos 2h.
    static let error = DeviationCurve([0, 4, 0, 0, 2])
    /// The card that corrects it: the same, taken off.
    static let card = DeviationCurve([0, -4, 0, 0, -2])

    /// 24 tacks, each a minute close-hauled on starboard then a minute on port, the wind from 47° further round each
    /// time; the compass adds `compass` to every heading, and the wind itself shifts by a few degrees across some
    /// tacks (as a lake's does), the same whatever the compass says.
    func sailing(compass: DeviationCurve) -> ([SailingSample], [Manoeuvre]) {
        var samples: [SailingSample] = []
        var tacks: [Manoeuvre] = []
        let apparent = WindTriangle.apparentWind(true: RelativeWind(angle: 42, speed: 12), speedThroughWater: 6)
        for k in 0..<24 {
            let from = Double(k * 47 % 360)
            let shift = Double((k * 5) % 7) - 3
            let start = samples.count
            for side in [1.0, -1.0] {
                let wind = from + (side < 0 ? shift : 0)
                let heading = Angle.direction(wind - side * 42)
                for _ in 0..<60 {
                    samples.append(
                        SailingSample(
                            time: Double(samples.count), awa: side * apparent.angle, aws: apparent.speed, stw: 6,
                            heading: compass.corrected(heading), cog: heading, sog: 6))
                }
            }
            tacks.append(
                Manoeuvre(
                    kind: .tack, time: Double(start + 60), sideBefore: 1, before: start..<(start + 60),
                    after: (start + 60)..<(start + 120)))
        }
        return (samples, tacks)
    }

    @Test func aRightCardIsSeenByTheWind() throws {
        let (samples, tacks) = sailing(compass: Self.error)
        let check = try #require(CardCheck.of(samples, tacks, card: Self.card))
        #expect(abs(check.slope + 1) < 0.1 && check.spread > 1, "\(check)")
        #expect(check.words == "the wind sees it")
    }

    @Test func aCardTheCompassDoesNotHaveIsNot() throws {
        // The compass is right; the card (learnt from a track that held something else) is not seen by the wind.
        let (samples, tacks) = sailing(compass: DeviationCurve())
        let check = try #require(CardCheck.of(samples, tacks, card: Self.card))
        #expect(abs(check.slope) < 0.2, "\(check)")
        #expect(check.words == "the wind does not see it")
        // A card of the wrong sign: the jumps go against it (+1), which is not seeing it either.
        let (wrong, wrongTacks) = sailing(compass: Self.card)
        let against = try #require(CardCheck.of(wrong, wrongTacks, card: Self.card))
        #expect(abs(against.slope - 1) < 0.2 && against.words == "the wind does not see it", "\(against)")
    }

    @Test func tooFewOrNoSpreadCannotTell() {
        let (samples, tacks) = sailing(compass: Self.error)
        #expect(CardCheck.of(samples, Array(tacks.prefix(4)), card: Self.card) == nil)
        #expect(CardCheck.of(samples, tacks, card: DeviationCurve()) == nil)
        // A constant card (the compass turned in its mounting) turns both sides alike: no spread, nothing to judge.
        let turned = CardCheck.of(samples, tacks, card: DeviationCurve([3, 0, 0, 0, 0]))
        #expect(turned?.words == "cannot tell" && (turned?.spread ?? 1) < 0.5)
    }
}
