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

    /// An RMC whose date field is empty is on the day the log said last:
    /// before 2026-11-30 it lay in 1970, and every dated second after it a day later, so a log with 185 such lines
    /// learnt a step in the log's reading on 29 July for Irene's days of June.
    @Test func anRMCWithoutItsDateIsOnTheDaySaidLast() throws {
        var sampler = SailingSampler()
        var lines: [String] = []
        for (second, date) in [("120000", "270614"), ("120001", ""), ("120002", ""), ("120003", "270614")] {
            lines += [
                "$IIMWV,320.0,R,12.0,N,A", "$IIVHW,,T,,M,5.5,N,,K", "$IIHDT,100.0,T",
                "$IIRMC,\(second),A,4623.00,N,00630.00,E,5.6,101.0,\(date),,,A",
            ]
        }
        try take(&sampler, lines)
        let day = 1_403_827_200.0  // 2014-06-27
        #expect(sampler.samples.map(\.time) == [day + 43_200, day + 43_201, day + 43_202, day + 43_203])
    }

    /// A plotter's GPS sends GGA, VTG and ZDA, and many compasses HDM: a log with no RMC has its seconds there (it
    /// had none before 2026-11-30: "0 s of sailing" where the replay read the same log).
    @Test func aLogWithoutRMCHasItsFixesInGGAAndGLLWithVTGAndZDA() throws {
        var sampler = SailingSampler()
        try take(
            &sampler,
            [
                "$IIHDG,98.0,,,2.0,E",  // the variation, said once
                "$IIMWV,320.0,R,12.0,N,A", "$IIVHW,,T,,M,5.5,N,,K", "$IIHDM,100.0,M",
                "$GPGGA,120000,4623.00,N,00630.00,E,1,08,1.0,372.0,M,,,,", "$GPVTG,101.0,T,,M,5.6,N,,K,A",
                "$GPZDA,120000,27,06,2014,00,00",
                // The next second: VTG before GGA (closes at once), and GLL of the same second (the same fix).
                "$IIMWV,321.0,R,12.0,N,A", "$IIVHW,,T,,M,5.4,N,,K", "$IIHDM,101.0,M",
                "$GPVTG,102.0,T,,M,5.7,N,,K,A", "$GPGGA,120001,4623.00,N,00630.00,E,1,08,1.0,372.0,M,,,,",
                "$GPGLL,4623.00,N,00630.00,E,120001,A,A",
                // No fix quality: the wind and the log count, the ground does not.
                "$IIMWV,322.0,R,12.0,N,A", "$IIVHW,,T,,M,5.3,N,,K", "$IIHDM,102.0,M",
                "$GPGGA,120002,,,,,0,00,,,,,,,", "$GPVTG,,T,,M,,N,,K,N",
            ])
        let samples = sampler.samples
        #expect(samples.count == 3)
        #expect(samples.map(\.awa) == [-40, -39, -38])
        #expect(samples.map(\.stw) == [5.5, 5.4, 5.3])
        #expect(samples.map(\.cog) == [101, 102, nil])
        #expect(samples.map(\.sog) == [5.6, 5.7, nil])
        #expect(samples.map(\.heading) == [102, 103, 104])
        // The first second had no date yet (ZDA came after it): it is put on ZDA's day, 27 June 2014, as the others
        // (not in 1970, a day of its own to the learner).
        let day = Double(UTCDate(year: 2014, month: 6, day: 27).daysSinceEpoch) * 86_400
        #expect(samples[0].time == day + 43_200)
        #expect(samples[1].time == day + 43_201)
        #expect(samples[2].time == day + 43_202)
    }

    /// Where a log has RMC, its GGA and GLL are the same fixes again: one second each, as before.
    @Test func aLogWithRMCTakesItsFixesFromRMCAlone() throws {
        var sampler = SailingSampler()
        for second in 0..<3 {
            try take(
                &sampler,
                [
                    // A u-blox receiver's order: RMC, VTG, GGA, GLL (a GGA half a second later is ignored too).
                    "$IIMWV,320.0,R,12.0,N,A", "$IIVHW,,T,,M,5.5,N,,K", "$IIHDT,100.0,T",
                    "$GPRMC,12000\(second),A,4623.00,N,00630.00,E,5.6,101.0,270614,,,A",
                    "$GPVTG,90.0,T,,M,4.0,N,,K,A",
                    "$GPGGA,12000\(second).5,4623.00,N,00630.00,E,1,08,1.0,372.0,M,,,,",
                    "$GPGLL,4623.00,N,00630.00,E,12000\(second).5,A,A",
                ])
        }
        #expect(sampler.samples.count == 3)
        #expect(sampler.samples.map(\.cog) == [101, 101, 101])
    }

    /// Each VTG goes with the fix nearest it: before its GGA (u-blox's order) as after it, one sent twice or one
    /// missing shifting no second after it (paired with the next fix, every second would take the one before's).
    @Test func eachVTGGoesWithTheFixNearestIt() throws {
        func second(_ s: Int, vtg: [Double], gga: Bool = true) -> [String] {
            ["$IIMWV,320.0,R,12.0,N,A", "$IIVHW,,T,,M,5.5,N,,K", "$IIHDT,100.0,T", "$IIMWV,320.0,R,12.0,N,A"]
                + vtg.map { "$GPVTG,\($0),T,,M,5.0,N,,K,A" }
                + (gga ? ["$GPGGA,12000\(s),4623.00,N,00630.00,E,1,08,1.0,372.0,M,,,,"] : [])
                + ["$IIDPT,5.0,0.0", "$GPGLL,4623.00,N,00630.00,E,12000\(s),A,A"]
        }
        var sampler = SailingSampler()
        try take(
            &sampler,
            second(0, vtg: [10]) + second(1, vtg: [11, 11]) + second(2, vtg: []) + second(3, vtg: [13])
                + second(4, vtg: [14]))
        #expect(sampler.samples.map(\.cog) == [10, 11, nil, 13, 14])
    }

    /// A log without a paddle wheel has no second of sailing, and the sampler says what it never heard.
    @Test func whatNoSentenceCarriedIsSaid() throws {
        var sampler = SailingSampler()
        #expect(sampler.lacking.count == 4)
        try take(
            &sampler,
            [
                "$IIMWV,320.0,R,12.0,N,A", "$IIHDM,100.0,M",
                "$IIRMC,120000,A,4623.00,N,00630.00,E,5.6,101.0,270614,,,A",
            ])
        #expect(sampler.samples.isEmpty)
        #expect(sampler.lacking == ["speed through the water (VHW)"])
    }

    /// A 10 Hz receiver: one sample a second, at the second's first fix (each fix taken and aging the values, a second
    /// gave two samples, the learner counting each as a second, and a wind heard once a second was stale by its
    /// third fix).
    @Test func aTenHertzReceiverGivesOneSampleASecond() throws {
        var sampler = SailingSampler()
        for second in 0..<5 {
            var lines = ["$IIMWV,32\(second).0,R,12.0,N,A", "$IIVHW,,T,,M,5.5,N,,K", "$IIHDT,100.0,T"]
            for tenth in 0..<10 {
                lines.append("$GPRMC,12000\(second).\(tenth),A,4623.00,N,00630.00,E,5.6,101.0,270614,,,A")
            }
            try take(&sampler, lines)
        }
        #expect(sampler.samples.map(\.awa) == [-40, -39, -38, -37, -36])
    }

    /// A receiver that sends RMC without its time (before its first fix, or always) has its seconds in GGA.
    @Test func anRMCWithoutItsTimeLeavesGGAItsFixes() throws {
        var sampler = SailingSampler()
        for second in 0..<3 {
            try take(
                &sampler,
                [
                    "$IIMWV,320.0,R,12.0,N,A", "$IIVHW,,T,,M,5.5,N,,K", "$IIHDT,100.0,T", "$GPRMC,,V,,,,,,,,,,N",
                    "$GPGGA,12000\(second),4623.00,N,00630.00,E,1,08,1.0,372.0,M,,,,", "$GPVTG,90.0,T,,M,4.0,N,,K,A",
                ])
        }
        // The last second's VTG, after its GGA, is paired at the next fix: the log ends first.
        #expect(sampler.samples.count == 3)
        #expect(sampler.samples.map(\.cog) == [90, 90, nil])
    }

    /// One RMC with a mangled time (23:59:59 in the afternoon) or date (a year on) once passed over every second
    /// after it until the clock caught up: half of a day of Irene's lost from one line (4,244 seconds, 2,114).
    /// Now a leap forward is followed only when the next fix keeps to it (a logger paused).
    @Test func aFixThatLeapsAloneIsAGlitchAndAPauseIsFollowed() throws {
        func second(_ time: String, _ date: String = "270614") -> [String] {
            [
                "$IIMWV,320.0,R,12.0,N,A", "$IIVHW,,T,,M,5.5,N,,K", "$IIHDT,100.0,T",
                "$IIRMC,\(time),A,4623.00,N,00630.00,E,5.6,101.0,\(date),,,A",
            ]
        }
        var sampler = SailingSampler()
        var lines = second("120000") + second("235959") + second("120001") + second("120002", "270615")
        lines += second("120003") + second("140000") + second("140001") + second("140002")
        try take(&sampler, lines)
        let day = 1_403_827_200.0  // 2014-06-27
        // The glitches left out; the pause of two hours followed from its second fix.
        #expect(sampler.samples.map(\.time) == [day + 43_200, day + 43_201, day + 43_203, day + 50_401, day + 50_402])
        // A log whose fixes come two minutes apart (no use to a calibration, which judges a minute either side of a
        // manoeuvre second by second) keeps every other: each leap waits for the next fix to go on from it.
        var sparse = SailingSampler()
        try take(&sparse, (0..<5).flatMap { second(["120000", "120200", "120400", "120600", "120800"][$0]) })
        #expect(sparse.samples.map(\.time) == [day + 43_200, day + 43_440, day + 43_680])
    }
}
