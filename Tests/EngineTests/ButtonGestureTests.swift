import Engine
import Testing

/// The race button: presses and holds from edges, and what they do to the timer.
@Suite struct ButtonGestureTests {
    @Test(
        "a press on release; a bounce shorter than 30 ms is nothing; a hold fires while held, its release adds nothing")
    func gestures() {
        var button = ButtonGesture()
        #expect(button.edge(pressed: true, at: 10) == nil)
        #expect(button.holdDue == 12)
        #expect(button.check(at: 10.5) == nil)
        #expect(button.edge(pressed: false, at: 10.2) == .press)
        #expect(button.holdDue == nil)
        #expect(button.edge(pressed: true, at: 11) == nil)
        #expect(button.edge(pressed: false, at: 11.01) == nil)  // a bounce
        #expect(button.edge(pressed: true, at: 20) == nil)
        #expect(button.check(at: 21.9) == nil)
        #expect(button.check(at: 22) == .hold)
        #expect(button.check(at: 23) == nil)  // once
        #expect(button.edge(pressed: false, at: 25) == nil)
        #expect(button.edge(pressed: false, at: 26) == nil)  // a release with no press
    }

    @Test("a press starts the sequence, the next syncs it to the minute at a flag, a hold resets it")
    func timer() {
        var engine = Engine()
        #expect(engine.apply(.button(.press), at: 0) == .done("race timer started"))
        #expect(engine.raceTimer.timeToStart(at: 0) == 300)
        // At 4:07 on the clock a flag goes up for four minutes: a press makes it 4:00.
        #expect(engine.apply(.button(.press), at: 53) == .done("race timer synced to the minute"))
        #expect(engine.raceTimer.timeToStart(at: 53) == 240)
        #expect(engine.apply(.button(.hold), at: 60) == .done("race timer reset"))
        #expect(engine.raceTimer.timeToStart(at: 60) == nil)
    }
}
