import Testing

@testable import Gateway

/// The engine's fixed rate: its schedule after a late turn, and a stall said in the log.
@Suite struct EngineServiceTests {
    @Test("a tick a quarter of a second late or more is said once with how late; on time and a little late are not")
    func stallSaid() {
        var said: [String] = []
        let engine = EngineService(rate: 10, log: Log { said.append($0.message) })
        var turn = Turn()
        turn.now = 100
        engine.start(&turn)
        for now in [100.0, 100.1, 100.25, 100.3] {  // on time, on time, 50 ms late, on time
            turn.now = now
            engine.service(&turn)
        }
        #expect(said.isEmpty)
        turn.now = 101.0  // 600 ms past the tick due at 100.4
        engine.service(&turn)
        #expect(said == ["engine: a tick ran 600.0 ms late"])
        // The phase kept, no burst: the next tick is due a tenth on, not at each missed one.
        #expect(engine.nextDue(now: 101) == 101.1)
        #expect(turn.events.count == 5)
    }
}
