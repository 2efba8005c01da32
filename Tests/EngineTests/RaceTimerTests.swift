import Engine
import NMEA
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

/// What the crew hears: the countdown and the alarms, due on the engine's clock.
@Suite struct AnnouncementTests {
    @Test("the words: the start, ten to one, seconds, minutes, minutes and seconds")
    func words() {
        #expect(RaceTimer.words(secondsBefore: 0) == "start")
        #expect(RaceTimer.words(secondsBefore: 7) == "seven")
        #expect(RaceTimer.words(secondsBefore: 30) == "thirty seconds")
        #expect(RaceTimer.words(secondsBefore: 45) == "forty five seconds")
        #expect(RaceTimer.words(secondsBefore: 60) == "one minute")
        #expect(RaceTimer.words(secondsBefore: 240) == "four minutes")
        #expect(RaceTimer.words(secondsBefore: 150) == "two minutes thirty")
    }

    @Test("a 5-4-1-0 start at 10 Hz: every announcement once, in order, within a tick of its moment, never early")
    func countdown() {
        var engine = Engine()
        var heard: [(at: Double, announcement: Announcement)] = []
        var time = 0.0
        engine.tick(at: time) { _, _ in }
        time = 2.37
        engine.raceTimer.start(at: time)
        let gun = time + 300
        while time < gun + 5 {
            time += 0.1
            engine.tick(at: time) { _, _ in }
            for announcement in engine.takeAnnouncements() { heard.append((time, announcement)) }
        }
        let expected =
            ["four minutes", "three minutes", "two minutes", "one minute", "thirty seconds", "twenty seconds"]
            + ["ten", "nine", "eight", "seven", "six", "five", "four", "three", "two", "one", "start"]
        #expect(heard.map { $0.announcement.text } == expected)
        for (at, announcement) in heard {
            #expect(at >= announcement.due - 1e-9 && at - announcement.due <= 0.1 + 1e-9, "\(announcement) at \(at)")
        }
        #expect(abs(heard.last!.announcement.due - gun) < 1e-9)
    }

    @Test("a configured sequence speaks only inside it; a paused timer says nothing; a reset one neither")
    func configured() {
        var engine = Engine()
        engine.raceTimer = RaceTimer(sequenceMinutes: [1, 0], announceSeconds: [120, 30, 3, 2, 1, 0])
        engine.tick(at: 0) { _, _ in }
        engine.raceTimer.start(at: 0)
        var texts: [String] = []
        var time = 0.0
        while time < 40 {
            time += 0.1
            engine.tick(at: time) { _, _ in }
            texts += engine.takeAnnouncements().map(\.text)
        }
        #expect(texts == ["thirty seconds"], "two minutes is before a one-minute sequence begins")
        engine.raceTimer.pause(at: time)
        while time < 100 {
            time += 0.1
            engine.tick(at: time) { _, _ in }
            texts += engine.takeAnnouncements().map(\.text)
        }
        #expect(texts == ["thirty seconds"])
    }

    @Test("an alarm raised is announced once, in the sailor's words when the configuration has them")
    func alarms() {
        for spoken in [nil, "Ease the main"] {
            var configuration = EngineConfiguration()
            configuration.alarms.overHeel = 20
            configuration.alarms.hold = 1
            configuration.alarms.spoken[.overHeel] = spoken
            var engine = Engine(configuration: configuration)
            let sensor = engine.source(named: "heel")
            var texts: [String] = []
            var time = 0.0
            while time < 10 {
                engine.ingest(encoded(XDR([.angle(25, name: "HEEL")]), talker: "II"), from: sensor, at: time)
                engine.tick(at: time) { _, _ in }
                texts += engine.takeAnnouncements().map(\.text)
                time += 0.1
            }
            #expect(texts == [spoken ?? "heel over 20 degrees"])
        }
    }
}
