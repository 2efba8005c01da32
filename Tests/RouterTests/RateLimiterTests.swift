import NMEA
import Router
import TestSupport
import Testing

@Suite struct RateLimiterTests {
    func sentence(_ body: String) throws -> Sentence { try Sentence(parsing: checksummed(body)) }

    @Test("a limit on *MWV limits apparent and true wind each, so true wind is not starved")
    func perKind() throws {
        var limiter = RateLimiter(limits: [("*MWV", 1)])
        let apparent = try sentence("IIMWV,40.0,R,12.0,N,A")
        let trueWind = try sentence("IIMWV,61.5,T,8.8,N,A")
        var sent: [String] = []
        // Ten ticks a second for three seconds, apparent then true in each tick, as the engine sends them.
        for tick in 0..<30 {
            let now = Double(tick) / 10
            for s in [apparent, trueWind] where limiter.admits(s, now: now) { sent.append(s.field(1) ?? "?") }
        }
        #expect(sent == ["R", "T", "R", "T", "R", "T"])
        #expect(limiter.limited == 54)
    }

    @Test("XDR kinds are told apart by their first transducer name; other addresses are not limited")
    func xdrAndUnlisted() throws {
        var limiter = RateLimiter(limits: [("IIXDR", 5)])
        let attitude = try sentence("IIXDR,A,5.0,D,ROLL,A,1.0,D,PTCH")
        let groundWind = try sentence("IIXDR,A,200.0,D,GWDIR,G,11.0,N,GWSPD")
        let heading = try sentence("IIHDT,90.0,T")
        var outcomes: [Bool] = []
        for (s, now) in [(attitude, 0.0), (groundWind, 0), (attitude, 4.9), (groundWind, 1), (attitude, 5)] {
            outcomes.append(limiter.admits(s, now: now))
        }
        #expect(outcomes == [true, true, false, false, true])
        var headings = 0
        for tick in 0..<10 where limiter.admits(heading, now: Double(tick) / 100) { headings += 1 }
        #expect(headings == 10)
    }

    @Test("the kind of a sentence names its distinguishing field")
    func kinds() throws {
        #expect(try sentence("IIMWV,40.0,R,12.0,N,A").kind.description == "IIMWV/R")
        #expect(try sentence("IIALR,120000.00,101,A,V,Over heel").kind.description == "IIALR/101")
        #expect(try sentence("IIHDT,90.0,T").kind.description == "IIHDT")
    }
}
