import Engine
import Marine
import NMEA
import Testing

/// An engine with damping off, so that values can be checked against hand-worked numbers.
func undampedConfiguration() -> EngineConfiguration {
    var configuration = EngineConfiguration()
    var damping = Damping()
    damping.apparentWind = 0
    damping.trueWind = 0
    damping.windDirection = 0
    damping.speedThroughWater = 0
    damping.speedOverGround = 0
    damping.courseOverGround = 0
    damping.windwardSpeed = 0
    damping.meanHeel = 0
    configuration.damping = damping
    configuration.wind.heelCorrection = false
    configuration.wind.leeway = nil
    return configuration
}

func encoded(_ sentence: some EncodableSentence, talker: Talker = "WI") -> Sentence {
    try! sentence.encode(talker: talker)
}

func apparent(_ angle: Double, _ knots: Double) -> Sentence {
    encoded(MWV(angle: Angle.direction(angle), reference: .relative, speed: knots, isValid: true))
}

func waterSpeed(_ knots: Double) -> Sentence { encoded(VHW(speedKnots: knots), talker: "VW") }
func trueHeading(_ degrees: Double) -> Sentence { encoded(HDT(heading: degrees), talker: "HE") }

/// Runs one tick and returns the sentences by kind.
func tick(_ engine: inout Engine, at time: Double) -> [ComputedKind: Sentence] {
    var out: [ComputedKind: Sentence] = [:]
    engine.tick(at: time) { kind, sentence in out[kind] = sentence }
    return out
}

func decoded<T: DecodableSentence>(_ type: T.Type, _ sentence: Sentence?) -> T? {
    guard let sentence else { return nil }
    return try? T(sentence)
}
