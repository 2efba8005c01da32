import Engine
import Marine
import NMEA
import Testing

@Suite struct SailingSamplerTests {
    func take(_ sampler: inout SailingSampler, _ lines: [String]) throws {
        for line in lines { sampler.take(try Message(Sentence(parsing: line, requiresChecksum: false))) }
    }

    @Test func aSecondCarriesTheInstrumentsOwnTrueWindWhenTheySendIt() throws {
        var sampler = SailingSampler()
        try take(
            &sampler,
            [
                "$IIMWV,320.0,R,12.0,N,A", "$IIMWV,310.0,T,9.0,N,A", "$IIVHW,,T,,M,5.5,N,,K", "$IIHDG,100.0,,,2.0,E",
                "$IIRMC,120000,A,4623.00,N,00630.00,E,5.6,101.0,270614,,,A",
                // The next second has no MWV T: the last one still stands (one fix of grace), then it is gone.
                "$IIMWV,321.0,R,12.0,N,A", "$IIVHW,,T,,M,5.5,N,,K", "$IIHDG,100.0,,,2.0,E",
                "$IIRMC,120001,A,4623.00,N,00630.00,E,5.6,101.0,270614,,,A",
                "$IIMWV,322.0,R,12.0,N,A", "$IIVHW,,T,,M,5.5,N,,K", "$IIHDG,100.0,,,2.0,E",
                "$IIRMC,120002,A,4623.00,N,00630.00,E,5.6,101.0,270614,,,A",
            ])
        let samples = sampler.samples
        #expect(samples.count == 3)
        #expect(samples.map(\.awa) == [-40, -39, -38])
        #expect(samples[0].instrumentTrueAngle == -50)
        #expect(samples[1].instrumentTrueAngle == -50)
        #expect(samples[2].instrumentTrueAngle == nil)
        #expect(abs(samples[0].heading - 102) < 1e-9)
    }
}
