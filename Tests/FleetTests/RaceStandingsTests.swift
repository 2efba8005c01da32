import Marine
import Testing

@testable import Fleet

/// The race office's reading of tracks: starts (a boat over early must come back), marks rounded in order within
/// their zone, finishes, elapsed and corrected times and the places they give, boats that stopped reporting, the
/// time limit, and the fleet file and results as a spreadsheet has them.
@Suite struct RaceStandingsTests {
    static let origin = GeoPoint(latitude: 50.76, longitude: -1.30)
    static let plane = LocalPlane(origin)

    static func geo(_ x: Double, _ y: Double) -> GeoPoint {
        GeoPoint(latitude: origin.latitude + y / plane.north, longitude: origin.longitude + x / plane.east)
    }

    /// A boat along a path of (x, y) metres at `speed` m/s, leaving its first point at `leave`, sampled every 10 s
    /// from 900 s to `end` (waiting at its first point before, at its last after).
    static func track(_ path: [(Double, Double)], speed: Double, leave: Double, end: Double = 2500)
        -> [(Double, Double, Double)]
    {
        var out: [(Double, Double, Double)] = []
        var t = 900.0
        while t <= end {
            var d = max(0, (t - leave) * speed)
            var p = path[0]
            for i in 1..<path.count {
                let dx = path[i].0 - path[i - 1].0
                let dy = path[i].1 - path[i - 1].1
                let leg = (dx * dx + dy * dy).squareRoot()
                if d <= leg {
                    p = (path[i - 1].0 + dx * d / leg, path[i - 1].1 + dy * d / leg)
                    d = -1
                    break
                }
                d -= leg
                p = path[i]
            }
            let g = geo(p.0, p.1)
            out.append((t, g.latitude, g.longitude))
            t += 10
        }
        return out
    }

    static func course(limit: Double? = nil) -> RaceCourse {
        var course = RaceCourse(
            name: "Wednesday 3", start: 1000, line: (geo(-100, 0), geo(100, 0)),
            marks: [RaceCourse.Mark(name: "Windward", point: geo(0, 1852), zone: 100)])
        course.timeLimit = limit
        return course
    }

    static func entry(_ boat: String, _ group: String, tcc: Double? = nil, py: Double? = nil) -> FleetEntry {
        var e = FleetEntry(boat: boat)
        e.group = group
        e.tcc = tcc
        e.py = py
        e.sail = "GBR " + boat.prefix(3)
        e.name = boat.prefix(1).uppercased() + boat.dropFirst()
        return e
    }

    static let entries = [
        entry("alpha", "IRC", tcc: 1.10), entry("bravo", "IRC", tcc: 0.90), entry("charlie", "IRC", tcc: 1.0),
        entry("delta", "IRC", tcc: 1.0), entry("echo", "IRC", tcc: 1.0), entry("foxtrot", "IRC", tcc: 1.0),
        entry("golf", "Sonar"),
    ]

    /// Up 1,900 m (48 m past the mark) and back through the line.
    static let windwardLeeward: [(Double, Double)] = [(0, -30), (0, 1900), (0, -30)]

    static func tracks() -> [String: [(Double, Double, Double)]] {
        [
            // Crosses at 1,010 s at 3 m/s: finishes at 1,010 + 3,800 / 3.
            "alpha": track(windwardLeeward, speed: 3, leave: 1000),
            // Crosses at 1,020 s at 2.8 m/s.
            "bravo": track([(0, -28)] + windwardLeeward.dropFirst(), speed: 2.8, leave: 1010),
            // Over the line at the gun (20 m up at 1,000 s), back below it, across again at 1,050 s, on at 2 m/s.
            "charlie": track([(0, -20), (0, 20), (0, -20), (0, 1900), (0, -30)], speed: 2, leave: 980),
            // Turns 300 m wide of the mark (outside its 100 m zone): never rounds it.
            "delta": track([(0, -30), (300, 1852), (0, -30)], speed: 3, leave: 1000),
            // Heard last at 1,500 s, still on the first leg.
            "echo": track(windwardLeeward, speed: 3, leave: 1000, end: 1500),
            "golf": track(windwardLeeward, speed: 2.6, leave: 990.5),
            // Not entered: not in the standings when there is a fleet file.
            "stranger": track(windwardLeeward, speed: 5, leave: 1000),
        ]
    }

    static func standing(_ list: [RaceStanding], _ boat: String) throws -> RaceStanding {
        try #require(list.first { $0.boat == boat })
    }

    @Test("starts, rounding and finishes give elapsed and corrected times, and the places they give differ")
    func places() throws {
        let list = RaceStandings.compute(Self.course(), entries: Self.entries, tracks: Self.tracks(), at: 2500)
        #expect(list.count == 7 && !list.contains { $0.boat == "stranger" })
        let alpha = try Self.standing(list, "alpha")
        let bravo = try Self.standing(list, "bravo")
        #expect(alpha.status == .finished && bravo.status == .finished)
        #expect(abs(try #require(alpha.started) - 1010) < 0.01)
        #expect(abs(try #require(alpha.finished) - (1010 + 3800 / 3.0)) < 0.5)
        #expect(abs(try #require(alpha.elapsed) - (10 + 3800 / 3.0)) < 0.5)
        #expect(abs(try #require(alpha.corrected) - 1.10 * (10 + 3800 / 3.0)) < 0.6)
        #expect(abs(try #require(bravo.corrected) - 0.90 * (20 + 3800 / 2.8)) < 0.6)
        // Sailed along the positions: the 10 s step that spans the turn cuts its corner (up to 20 m at 3 m/s).
        #expect(alpha.rounded.count == 1 && alpha.sailed < 3800 && alpha.sailed > 3775)
        // Alpha first home, bravo first on handicap.
        #expect(alpha.placeElapsed == 1 && bravo.placeElapsed == 2)
        #expect(bravo.placeCorrected == 1 && alpha.placeCorrected == 2)
        // Standings come in each class's corrected order.
        #expect(list.filter { $0.group == "IRC" }.map(\.placeCorrected) == [1, 2, 3, 4, 5, 6])
        let foxtrot = try Self.standing(list, "foxtrot")
        #expect(foxtrot.status == .notStarted && foxtrot.placeCorrected == 6 && foxtrot.last == nil)
        let golf = try Self.standing(list, "golf")
        #expect(golf.placeCorrected == 1 && golf.placeElapsed == 1 && golf.status == .finished)
        #expect(abs(try #require(golf.elapsed) - (2 + 3800 / 2.6)) < 0.5 && golf.corrected == golf.elapsed)
    }

    @Test("a boat over the line at the gun is started only when it comes back and crosses again")
    func overEarly() throws {
        let list = RaceStandings.compute(Self.course(), entries: Self.entries, tracks: Self.tracks(), at: 2500)
        let charlie = try Self.standing(list, "charlie")
        let length = Self.course().length
        #expect(abs(try #require(charlie.started) - 1030) < 0.01)
        #expect(charlie.status == .racing && charlie.rounded.count == 1 && !charlie.stopped)
        // At 2,500 s: 3,040 m from where it left: 40 up, 40 back, 1,920 to the top, 1,040 down: 860 m above the line.
        #expect(abs(try #require(charlie.toGo) - 860) < 1)
        #expect(charlie.sailed < 2960 && charlie.sailed > 2935)
        let projected = 1500 * length / (length - 860)
        let corrected = try #require(charlie.corrected)
        #expect(charlie.projected && abs(corrected - projected) < 2)
    }

    @Test("a mark passed wide of its zone is not rounded; a boat not heard for two minutes is marked")
    func marksAndSilence() throws {
        let list = RaceStandings.compute(Self.course(), entries: Self.entries, tracks: Self.tracks(), at: 2500)
        let delta = try Self.standing(list, "delta")
        #expect(delta.status == .racing && delta.rounded.isEmpty && delta.finished == nil)
        let last = try #require(delta.last)
        let here = GeoPoint(latitude: last.latitude, longitude: last.longitude)
        let expected =
            Geodesic.wgs84.inverse(here, Self.geo(0, 1852)).distance
            + Geodesic.wgs84.inverse(Self.geo(0, 1852), Self.geo(0, 0)).distance
        #expect(abs(try #require(delta.toGo) - expected) < 0.01)
        let echo = try Self.standing(list, "echo")
        #expect(echo.stopped && echo.status == .racing && abs((echo.last?.time ?? 0) - 1500) < 0.1)
        // The same race read at 1,550 s: echo was heard 50 s ago.
        let earlier = RaceStandings.compute(Self.course(), entries: Self.entries, tracks: Self.tracks(), at: 1550)
        #expect(try !Self.standing(earlier, "echo").stopped)
    }

    @Test("after the time limit a boat still racing did not finish, and a finish after it does not count")
    func timeLimit() throws {
        let list = RaceStandings.compute(
            Self.course(limit: 2300), entries: Self.entries, tracks: Self.tracks(), at: 2500)
        #expect(try Self.standing(list, "alpha").status == .finished)
        let bravo = try Self.standing(list, "bravo")
        #expect(bravo.status == .didNotFinish && bravo.finished == nil)
        #expect(try Self.standing(list, "foxtrot").status == .notStarted)
        let csv = RaceResults.csv(Self.course(limit: 2300), standings: list, entries: [:])
        #expect(csv.contains(",bravo,,,DNF,") && csv.contains(",foxtrot,,,DNS,"))
    }

    @Test("without a fleet file every boat with a track races, in one class")
    func noEntries() throws {
        let list = RaceStandings.compute(Self.course(), entries: [], tracks: Self.tracks(), at: 2500)
        #expect(list.count == 7 && list.allSatisfy { $0.group == "" })
        #expect(list.first?.boat == "stranger" && list.first?.status == .finished)
    }

    @Test("the results as CSV: each class in corrected order, times as h:mm:ss, quoted where they must be")
    func results() throws {
        var entries = Self.entries
        entries[1].name = "Bravo, \"Two\""
        let list = RaceStandings.compute(Self.course(), entries: entries, tracks: Self.tracks(), at: 2500)
        var entered: [String: FleetEntry] = [:]
        for entry in entries { entered[entry.boat] = entry }
        let lines = RaceResults.csv(Self.course(), standings: list, entries: entered)
            .split(separator: "\r\n").map(String.init)
        #expect(lines.count == 8 && lines[0].hasPrefix("Race,Class,Place,Sail,Boat,Name,Rating,Status"))
        let elapsed = RaceResults.duration(20 + 3800 / 2.8)
        let corrected = RaceResults.duration(0.9 * (20 + 3800 / 2.8))
        #expect(
            lines[1].hasPrefix("Wednesday 3,IRC,1,GBR bra,bravo,\"Bravo, \"\"Two\"\"\",TCC 0.900,FIN,00:17:00,")
                && lines[1].contains(",\(elapsed),\(corrected),"))
        #expect(RaceResults.duration(3723.4) == "1:02:03")
        #expect(lines.last?.hasPrefix("Wednesday 3,Sonar,1,") == true)
    }

    @Test("the fleet file: columns by name in any order, semicolons, quotes, and lines that cannot be entries said")
    func fleetFile() {
        let text =
            "\u{FEFF}Sail Number;Boat;Class;TCC;Colour;Name;Owner\r\n"
            + "GBR 1;alpha;IRC 1;1,012;#c00;\"Alpha; the first\";Ann\r\n"
            + "GBR 2;bravo;IRC 1;1.012;red;Bravo;Bob\r\n"
            + ";not a boat!;IRC 1;;;;\r\n"
            + "GBR 3;bravo;IRC 2;;;;\r\n"
            + "GBR 4;charlie;IRC 1;9;;;\r\n"
            + "GBR 5;delta;IRC 1;;url(x);;\r\n"
            + ";;;;;;\r\n"
            + "GBR 6;echo;Sonar;;#0a0;Echo;\r\n"
        let (entries, problems) = FleetEntries.parse(text)
        #expect(entries.map(\.boat) == ["bravo", "echo"])
        #expect(entries.first?.tcc == 1.012 && entries.first?.colour == "red" && entries.first?.sail == "GBR 2")
        #expect(entries.last?.group == "Sonar" && entries.last?.colour == "#0a0" && entries.last?.tcc == nil)
        // alpha's TCC has a decimal comma (refused, not guessed), then an id, a boat twice, a TCC, a colour.
        #expect(problems.count == 5)
        #expect(problems.first?.hasPrefix("line 2:") == true && problems.last?.hasPrefix("line 7:") == true)
        let (none, why) = FleetEntries.parse("name,class\nx,y\n")
        #expect(none.isEmpty && why.count == 1)
        var py = FleetEntry(boat: "x")
        py.py = 1100
        #expect(abs(py.corrected(3300) - 3000) < 1e-9 && py.rating == "PY 1100")
    }
}
