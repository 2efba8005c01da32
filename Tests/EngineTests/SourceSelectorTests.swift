import Engine
import Testing

@Suite struct SourceSelectorTests {
    let primary = SourceID(0)
    let secondary = SourceID(1)

    @Test("failover after the timeout, return only after the better source is steady")
    func failoverAndReturn() {
        var selector = SourceSelector<Double>(timeout: 3, returnDelay: 10, priority: [primary, secondary])
        var chosen: [SourceID?] = []
        var time = 0.0
        while time < 40 {
            let primaryAlive = time < 10 || time >= 20
            if primaryAlive { selector.record(Observation(value: 1, time: time, source: primary)) }
            selector.record(Observation(value: 2, time: time, source: secondary))
            chosen.append(selector.select(at: time)?.source)
            time += 0.5
        }
        func at(_ t: Double) -> SourceID? { chosen[Int(t / 0.5)] }
        #expect(at(5) == primary)
        #expect(at(12) == primary)  // still inside the timeout
        #expect(at(14) == secondary)  // failed over
        #expect(at(25) == secondary)  // primary back, but not yet steady for 10 s
        #expect(at(31) == primary)  // returned
        #expect(selector.switches == 2)
    }

    @Test("a flickering better source does not pull the choice back and forth")
    func noFlapping() {
        var selector = SourceSelector<Double>(timeout: 3, returnDelay: 10, priority: [primary, secondary])
        var time = 0.0
        while time < 120 {
            // Primary: 4 s on, 5 s off, forever.
            if time.truncatingRemainder(dividingBy: 9) < 4 {
                selector.record(Observation(value: 1, time: time, source: primary))
            }
            selector.record(Observation(value: 2, time: time, source: secondary))
            _ = selector.select(at: time)
            time += 0.25
        }
        #expect(selector.switches <= 1)
        #expect(selector.currentSource == secondary)
    }

    @Test("unlisted sources rank after listed ones, in order of appearance; none fresh gives nil")
    func ranking() {
        var selector = SourceSelector<Double>(timeout: 1, returnDelay: 0, priority: [secondary])
        selector.record(Observation(value: 1, time: 0, source: primary))
        selector.record(Observation(value: 2, time: 0, source: secondary))
        #expect(selector.select(at: 0)?.value == 2)
        #expect(selector.select(at: 5) == nil)
    }
}
