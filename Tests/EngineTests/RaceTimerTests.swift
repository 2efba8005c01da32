import Engine
import Testing

/// The start timer, on the engine's clock.
@Suite struct RaceTimerTests {
    @Test("5-4-1-0: the signals fall when they should, and the timer runs on as race time after the gun")
    func sequence() {
        var timer = RaceTimer()
        #expect(timer.timeToStart(at: 0) == nil)
        timer.start(at: 100)
        #expect(timer.timeToStart(at: 100) == 300)
        #expect(timer.signals(after: 99, through: 100) == [300])
        #expect(timer.signals(after: 100, through: 159.9).isEmpty)
        #expect(timer.signals(after: 159.9, through: 160) == [240])
        #expect(timer.signals(after: 100, through: 400) == [240, 60, 0])
        #expect(timer.timeToStart(at: 430) == -30, "race time after the gun")
    }

    @Test("pause holds the time left, start resumes it; reset clears; race time is not paused")
    func pauseResume() {
        var timer = RaceTimer(sequenceMinutes: [3, 2, 1, 0])
        timer.start(at: 0)
        timer.pause(at: 50)
        #expect(timer.timeToStart(at: 500) == 130)
        timer.start(at: 500)
        #expect(timer.timeToStart(at: 510) == 120)
        timer.pause(at: 700)
        #expect(timer.timeToStart(at: 720) == -90, "after the gun a pause is refused")
        timer.reset()
        #expect(timer.timeToStart(at: 720) == nil)
    }

    @Test("sync rounds the time left to the nearest minute, both ways; an idle timer starts")
    func sync() {
        var timer = RaceTimer()
        timer.start(at: 0)
        timer.sync(at: 53)  // 4:07 left
        #expect(timer.timeToStart(at: 53) == 240)
        timer.sync(at: 68)  // 3:52 left
        #expect(timer.timeToStart(at: 68) == 240)
        var idle = RaceTimer()
        idle.sync(at: 10)
        #expect(idle.timeToStart(at: 10) == 300)
        #expect(RaceTimer(sequenceMinutes: [-1, .nan]).sequence == [300, 0], "a sequence with nothing usable")
    }
}
