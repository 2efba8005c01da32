import Fleet
import Testing

/// The letters on their way: a few out at once, a failure tried again later and later, a refusal given up at once,
/// an alert storm bounded.
@Suite struct OutboxTests {
    @Test("four out at once; the fifth when one comes back")
    func parallel() {
        var box = Outbox<String>(parallel: 4)
        for n in 0..<5 { box.post("letter \(n)", at: 0) }
        let first = box.due(at: 0)
        #expect(first.map(\.letter) == ["letter 0", "letter 1", "letter 2", "letter 3"])
        #expect(box.due(at: 1).isEmpty)
        #expect(box.ended(first[0].id, .delivered, at: 2) == .done)
        #expect(box.due(at: 2).map(\.letter) == ["letter 4"])
    }

    @Test("a failure waits 30 s, 2 min, 10 min, 30 min, an hour, then is given up; a refusal at once")
    func again() {
        var box = Outbox<String>()
        box.post("a", at: 0)
        var now = 0.0
        var waits: [Double] = []
        while true {
            let out = box.due(at: now)
            #expect(out.count == 1)
            guard let item = out.first else { return }
            switch box.ended(item.id, .failed, at: now) {
            case .again(let at)?:
                waits.append(at - now)
                #expect(box.due(at: at - 1).isEmpty)
                now = at
            case .givenUp(let attempts)?:
                #expect(attempts == 6)
                #expect(waits == [30, 120, 600, 1800, 3600] && box.isEmpty)
                return
            default:
                Issue.record("neither again nor given up")
                return
            }
        }
    }

    @Test("refused for good: given up after the one try; an id not out is nothing")
    func refused() {
        var box = Outbox<Int>()
        let id = box.post(1, at: 0)
        _ = box.due(at: 0)
        #expect(box.ended(id, .refused, at: 1) == .givenUp(attempts: 1))
        #expect(box.ended(id, .delivered, at: 1) == nil && box.isEmpty)
    }

    @Test("an alert storm keeps the newest letters and counts what it dropped")
    func storm() {
        var box = Outbox<Int>(parallel: 1, capacity: 10)
        for n in 0..<25 { box.post(n, at: 0) }
        #expect(box.count == 10 && box.dropped == 15)
        #expect(box.due(at: 0).map(\.letter) == [15])
    }
}
