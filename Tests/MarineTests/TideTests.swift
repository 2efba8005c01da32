import TestSupport
import Testing

@testable import Marine

/// Tides from Debian's `xtide-data` (#51): the harmonics file read by Telltale's own reader, the node factors and
/// equilibrium arguments computed for the year asked against the file's own tables (made by XTide's congen, not
/// here), and predictions against NOAA's published ones for Honolulu, Boston and the current at Turn Point, Boundary
/// Pass. Skipped, saying so, when the package or `../shared/fixtures` is absent.
@Suite struct TideTests {
    static let path = "/usr/share/xtide/harmonics-dwf-20191229-free.tcd"
    /// 2026-08-15 12:00 UTC.
    static let noon = 1_786_795_200.0

    static func file() -> HarmonicsFile? {
        guard let bytes = readFile(path) else {
            print("SKIPPED: \(path) is absent (Debian's xtide-data, `make deps` installs it)")
            return nil
        }
        return try? HarmonicsFile(GridBytes(copying: bytes))
    }

    static func station(_ file: HarmonicsFile, _ number: Int) throws -> TideStation {
        let record = try file.record(number)
        let reference = try record.referenceNumber.map { try file.record($0) }
        return try TideStation(record, reference: reference, file: file, fileName: "harmonics")
    }

    @Test("the file's header, constituents and stations as libtcd reads them (Honolulu; Turn Point, a current)")
    func reader() throws {
        guard let file = Self.file() else { return }
        #expect(file.recordCount == 5407 && file.years == 1700...2100)
        #expect(file.constituentNames.count == 176 && file.constituentNames.prefix(3) == ["J1", "K1", "K2"])
        let m2 = try #require(file.constituentNames.firstIndex(of: "M2"))
        #expect(abs(file.speeds[m2] - 28.9841042) < 1e-7)
        let table = try #require(file.yearTable(constituent: m2, year: 2026))
        #expect(abs(table.argument - 66.36) < 1e-9 && abs(table.nodeFactor - 0.9674) < 1e-9)
        let honolulu = try file.record(13)
        #expect(honolulu.name == "Honolulu, Honolulu Harbor, Oahu Island, Hawaii" && honolulu.levelUnits == "feet")
        guard case .reference(let constants) = honolulu.kind else {
            Issue.record("not a reference")
            return
        }
        #expect(
            constants.datum == "Mean Lower Low Water" && constants.zoneOffset == 0
                && abs(constants.datumOffset - 0.82) < 1e-9)
        let turn = try file.record(1756)
        #expect(turn.name == "Turn Point, Boundary Pass (Depth 115.6ft), Washington Current" && turn.isCurrent)
        #expect(turn.ebbDirection == 236 && turn.floodDirection == 3 && turn.stationID == "PUG1717_35")
        #expect(abs(turn.latitude - 48.69121) < 1e-9 && abs(turn.longitude + 123.24501) < 1e-9)
        guard case .reference(let current) = turn.kind else {
            Issue.record("not a reference")
            return
        }
        #expect(
            current.constituents.count == 25 && abs(current.datumOffset - 0.297) < 1e-9 && current.zoneOffset == -800)
        let sub = try file.record(4004)
        #expect(sub.referenceNumber == 817)
        guard case .subordinate(_, let offsets) = sub.kind else {
            Issue.record("not subordinate")
            return
        }
        #expect(offsets.minTimeAdd == 38 && offsets.maxTimeAdd == 25 && offsets.floodBegins == nil)
        #expect(abs(offsets.minLevelMultiply - 0.96) < 1e-9 && abs(offsets.maxLevelMultiply - 1.04) < 1e-9)
        let entries = try file.entries()
        #expect(entries.count == 5407 && entries[1756].name == turn.name && entries[1756].isReference)
    }

    @Test("V0 + u and f computed from the astronomy for 1750 to 2095 agree with XTide's own tables in the file")
    func yearArguments() throws {
        guard let file = Self.file() else { return }
        var worstArgument = 0.0
        var worstFactor = 0.0
        for year in stride(from: 1750, through: 2095, by: 15) {
            let start = TideCalendar.yearStart(year)
            let sky = TideAstronomy(unixTime: start)
            let middle = TideAstronomy(unixTime: start + 182 * 86_400)
            for constituent in TideConstituent.all {
                let index = try #require(file.constituentNames.firstIndex(of: constituent.name))
                #expect(abs(file.speeds[index] - constituent.speed) < 1e-4, "\(constituent.name)'s speed")
                let table = try #require(file.yearTable(constituent: index, year: year))
                let mine = constituent.yearArgument(start: sky, middle: middle)
                var difference = (mine.argument - table.argument).truncatingRemainder(dividingBy: 360)
                if difference > 180 { difference -= 360 }
                if difference < -180 { difference += 360 }
                worstArgument = max(worstArgument, abs(difference))
                worstFactor = max(worstFactor, abs(mine.factor - table.nodeFactor))
                #expect(
                    abs(difference) < 0.35, "\(constituent.name) \(year): V0+u \(mine.argument) vs \(table.argument)")
                #expect(abs(mine.factor - table.nodeFactor) < 0.005, "\(constituent.name) \(year): f")
            }
        }
        print("TideTests: worst V0+u difference \(worstArgument)°, worst f difference \(worstFactor)")
    }

    @Test("the calendar: each year's first second, and the year of an instant, either side of it")
    func calendar() {
        #expect(TideCalendar.yearStart(1970) == 0 && TideCalendar.yearStart(2026) == 1_767_225_600)
        #expect(TideCalendar.yearStart(2000) == 946_684_800 && TideCalendar.yearStart(1900) == -2_208_988_800)
        #expect(TideCalendar.year(of: 1_767_225_600) == 2026 && TideCalendar.year(of: 1_767_225_599) == 2025)
    }
}

/// The curve across a new year, and a year outside the file's tables; broken files.
@Suite struct TideEdgeTests {
    @Test("across New Year 2027 the height and its slope are continuous (the two years blended), and 2150 predicts")
    func newYear() throws {
        guard let file = TideTests.file() else { return }
        var curve = try TideTests.station(file, 74).curve()
        let midnight = TideCalendar.yearStart(2027)
        var previous = curve.value(at: midnight - 7200)
        var largest = 0.0
        // Boston's tide moves at most some 0.02 m a minute; a step at midnight would show as one jump.
        for minute in -119...120 {
            let value = curve.value(at: midnight + Double(minute) * 60)
            largest = max(largest, abs(value - previous))
            previous = value
        }
        #expect(largest < 0.025, "the largest change in a minute: \(largest) m")
        let events = curve.events(from: midnight - 86_400, to: midnight + 86_400)
        #expect(events.count >= 7 && events.count <= 9)
        for (a, b) in zip(events, events.dropFirst()) { #expect(a.kind != b.kind && b.time - a.time > 4 * 3600) }
        // Beyond the file's tables (1700 to 2100): every constituent Boston has is computed, so the year is predicted.
        let far = TideCalendar.yearStart(2150) + 100 * 86_400
        let later = curve.events(from: far, to: far + 86_400)
        #expect(later.count >= 3 && later.allSatisfy { $0.value > -1.5 && $0.value < 4.5 })
    }

    @Test("a file cut short anywhere, or with bytes changed, is refused or read; never read past its end")
    func brokenFiles() throws {
        guard let bytes = readFile(TideTests.path) else { return }
        var seed: UInt64 = 51
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: (seed >> 33) % UInt64(bound))
        }
        var refused = 0
        var read = 0
        for round in 0..<40 {
            var copy = bytes
            if round % 2 == 0 {
                copy = Array(copy.prefix(next(bytes.count)))
            } else {
                for _ in 0..<200 { copy[next(copy.count)] = UInt8(truncatingIfNeeded: next(256)) }
            }
            guard let file = try? HarmonicsFile(GridBytes(copying: copy)) else {
                refused += 1
                continue
            }
            read += 1
            guard let entries = try? file.entries() else { continue }
            for entry in entries.prefix(300) {
                guard let record = try? file.record(entry) else { continue }
                let reference = record.referenceNumber.flatMap { try? file.record($0) }
                guard let station = try? TideStation(record, reference: reference, file: file, fileName: "x") else {
                    continue
                }
                var curve = station.curve()
                _ = curve.value(at: TideTests.noon)
            }
        }
        #expect(refused + read == 40 && refused > 0 && read > 0)
    }
}
