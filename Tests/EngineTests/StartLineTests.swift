import Engine
import Marine
import NMEA
import TestSupport
import Testing

/// The start line against GeographicLib, and through the engine: ends pinged from the bow, distance, time to the
/// line and to burn, bias, XDR, and the over-early alarm at the gun.
@Suite struct StartLineTests {
    static func vectors(filePath: String = #filePath) -> [[Double]] {
        var components = filePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        components.removeLast()
        let path = components.joined(separator: "/") + "/Vectors/start-line.txt"
        let text = String(decoding: readFile(path) ?? [], as: UTF8.self)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            line.split(separator: " ").compactMap { Double($0) }
        }
    }

    @Test("distance and time to the line within 1 mm and 1 ms of GeographicLib's, beyond the ends and over it too")
    func againstGeographicLib() throws {
        let cases = Self.vectors()
        #expect(cases.count == 42)
        var worst = 0.0
        var worstTime = 0.0
        var timed = 0
        for c in cases {
            let line = StartLine(
                port: GeoPoint(latitude: c[0], longitude: c[1]), starboard: GeoPoint(latitude: c[2], longitude: c[3]))
            let status = try #require(
                line.status(
                    bow: GeoPoint(latitude: c[4], longitude: c[5]), speed: 3, course: c[6], windDirection: nil,
                    timeToStart: nil))
            worst = max(worst, abs(status.distance - c[7]))
            #expect(status.isOver == (c[7] < 0))
            if c[9] < 0 {
                #expect(status.timeToLine == nil)
            } else if let time = status.timeToLine {
                worstTime = max(worstTime, abs(time - c[9]))
                timed += 1
            } else {
                Issue.record("no time to the line where GeographicLib closes it in \(c[9]) s")
            }
        }
        #expect(worst < 0.001, "worst \(worst) m")
        #expect(timed > 20 && worstTime < 0.001, "worst \(worstTime) s over \(timed)")
    }

    @Test("bias: square to the wind is 0; the end further upwind is favoured, by the line's length times sin(bias)")
    func bias() throws {
        let port = GeoPoint(latitude: 50, longitude: -1)
        let starboard = Geodesic.wgs84.direct(from: port, azimuth: 90, distance: 400).point
        let line = StartLine(port: port, starboard: starboard)
        let bow = Geodesic.wgs84.direct(from: port, azimuth: 135, distance: 200).point
        func status(_ wind: Double) throws -> StartLineStatus {
            try #require(line.status(bow: bow, speed: nil, course: nil, windDirection: wind, timeToStart: nil))
        }
        #expect(abs(try status(0).bias! - 0) < 0.01)
        // The wind from 350: the western (port) end is 10° further upwind.
        let port10 = try status(350)
        #expect(abs(port10.bias! + 10) < 0.01 && port10.favouredEnd == .port)
        #expect(abs(port10.advantage! - 69.459) < 0.05)  // 400 · sin 10°
        // A line laid across a reaching first leg: 13° off the wind's axis is 77° of bias, never more than 90°.
        let along = StartLine(
            port: port, starboard: Geodesic.wgs84.direct(from: port, azimuth: 212, distance: 200).point)
        let reaching = try #require(
            along.status(bow: bow, speed: nil, course: nil, windDirection: 225, timeToStart: nil))
        #expect(abs(reaching.bias! - 77) < 0.01 && reaching.favouredEnd == .starboard)
        let starboard15 = try status(15)
        #expect(abs(starboard15.bias! - 15) < 0.01 && starboard15.favouredEnd == .starboard)
    }

    @Test("time to the line at the polar's best: dead upwind at the beat's VMG, on a beam reach at the polar speed")
    func atPolar() throws {
        let port = GeoPoint(latitude: 50, longitude: -1)
        let starboard = Geodesic.wgs84.direct(from: port, azimuth: 90, distance: 400).point
        let line = StartLine(port: port, starboard: starboard)
        func status(_ bow: GeoPoint) throws -> StartLineStatus {
            try #require(
                line.status(
                    bow: bow, speed: nil, course: nil, windDirection: 0, timeToStart: nil,
                    polar: PerformanceTests.polar, windSpeed: 6))
        }
        let middle = Geodesic.wgs84.direct(from: port, azimuth: 90, distance: 200).point
        let upwind = try status(Geodesic.wgs84.direct(from: middle, azimuth: 180, distance: 200).point)
        // The 6 kn beat: 40° at 4 kn, 4 · cos 40° = 3.0642 kn made good: 200 m in 126.87 s.
        #expect(abs(upwind.timeToLineAtPolar! - 200 / (3.064_178 * 1852 / 3600)) < 0.01)
        let west = Geodesic.wgs84.direct(from: port, azimuth: 270, distance: 200).point
        // To the port end on a beam reach, 6 kn on the polar: 200 m in 64.8 s.
        #expect(abs(try status(west).timeToLineAtPolar! - 200 / (6 * 1852.0 / 3600)) < 0.05)
        let plain = line.status(bow: west, speed: nil, course: nil, windDirection: 0, timeToStart: nil)
        #expect(plain?.timeToLineAtPolar == nil)
    }

    @Test(
        "waypoints name the ends, or come in port-then-starboard order; one waypoint, or two at one place, is no line")
    func fromWaypoints() throws {
        let a = GeoPoint(latitude: 50, longitude: -1)
        let b = GeoPoint(latitude: 50, longitude: -0.995)
        let named = try #require(
            StartLine(waypoints: [Waypoint(id: "Committee", position: a), Waypoint(id: "PIN", position: b)]))
        #expect(named.port == b && named.starboard == a)
        let ordered = try #require(
            StartLine(waypoints: [Waypoint(id: "A", position: a), Waypoint(id: "B", position: b)]))
        #expect(ordered.port == a && ordered.starboard == b)
        #expect(StartLine(waypoints: [Waypoint(id: "A", position: a)]) == nil)
        #expect(StartLine(waypoints: [Waypoint(id: "A", position: a), Waypoint(id: "B", position: a)]) == nil)
    }

    /// An engine whose boat sails north at 5 kn from `start`, heading 000, GPS 8 m aft of the bow.
    struct Boat {
        var engine: Engine
        let gps: SourceID
        var time = 0.0
        var position: GeoPoint
        var sent: [String] = []
        var said: [String] = []

        init(at start: GeoPoint) {
            var configuration = undampedConfiguration()
            configuration.kinds = [.startLine, .alarm]
            configuration.intervals[.startLine] = 1
            configuration.bowOffset = 8
            engine = Engine(configuration: configuration)
            gps = engine.source(named: "gps")
            position = start
        }

        mutating func sail(for seconds: Double, knots: Double = 5, course: Double = 0) {
            let end = time + seconds
            while time < end - 1e-9 {
                let rmc = RMC(
                    time: UTCTime(millisecondsOfDay: 36_000_000 + Int(time * 1000)), isValid: true,
                    latitude: position.latitude, longitude: position.longitude, speedOverGround: knots,
                    courseOverGround: course, date: UTCDate(year: 2026, month: 11, day: 24), mode: .autonomous)
                engine.ingest(encoded(rmc, talker: "GP"), from: gps, at: time)
                engine.ingest(trueHeading(course), from: gps, at: time)
                engine.ingest(apparent(40, 12), from: gps, at: time)
                engine.ingest(waterSpeed(knots), from: gps, at: time)
                let now = time
                var out: [String] = []
                engine.tick(at: now) { _, sentence in out.append(sentence.description) }
                sent += out
                said += engine.takeAnnouncements().map(\.text)
                position =
                    Geodesic.wgs84.direct(
                        from: position, azimuth: course, distance: Units.metresPerSecond(knots: knots) * 1
                    ).point
                time += 1
            }
        }
    }

    @Test("ends pinged at the bow; distance, time to the line and to burn as the boat closes it; XDR says them")
    func closing() throws {
        let origin = GeoPoint(latitude: 50.7, longitude: -1.3)
        var boat = Boat(at: origin)
        boat.sail(for: 2)
        let pinged = boat.engine.pingStartLine(.port)
        #expect(pinged)
        let portEnd = try #require(boat.engine.startLine.port)
        // The bow is 8 m ahead of the antenna along the heading (000), the antenna where it was last reported.
        let antenna = Geodesic.wgs84.direct(from: origin, azimuth: 0, distance: Units.metresPerSecond(knots: 5)).point
        // (RMC carries 0.0001 minute: 0.2 m at most.)
        #expect(abs(Geodesic.wgs84.inverse(antenna, portEnd).distance - 8) < 0.2)
        // The starboard end 300 m east of the port end; then the boat goes 200 m south and sails back north.
        boat.engine.startLine.starboard = Geodesic.wgs84.direct(from: portEnd, azimuth: 90, distance: 300).point
        boat.position = Geodesic.wgs84.direct(from: origin, azimuth: 180, distance: 200).point
        boat.position = Geodesic.wgs84.direct(from: boat.position, azimuth: 90, distance: 150).point
        boat.engine.raceTimer.start(at: boat.time)  // 5 minutes to the gun
        boat.sent.removeAll()
        boat.sail(for: 10)
        let status = try #require(boat.engine.values.startLine)
        // The antenna was put 200 m south of the origin and has sailed 9 × 2.572 m north since; the line is 2.572 +
        // 8 m north of the origin: the bow, 8 m ahead of the antenna, is 200 + 2.572 - 9 × 2.572 m short of it.
        let metresPerSecond = Units.metresPerSecond(knots: 5)
        let expected = 200 + metresPerSecond - 9 * metresPerSecond
        #expect(abs(status.distance - expected) < 0.5, "\(status.distance) against \(expected)")
        #expect(abs(status.timeToLine! - expected / metresPerSecond) < 0.5)
        let timeToStart = try #require(boat.engine.raceTimer.timeToStart(at: boat.time - 1))
        #expect(abs(status.timeToBurn! - (timeToStart - status.timeToLine!)) < 0.01)
        #expect(abs(status.length - 300) < 0.01)
        let xdr = try #require(boat.sent.last { $0.contains("LINEDIST") })
        #expect(xdr.contains(",D,\(FixedDecimal.text(status.distance, decimals: 1)),M,LINEDIST,G,"))
        #expect(
            xdr.contains(",LINETIME,G,") && xdr.contains(",LINEBURN,A,") && xdr.hasSuffix("LINEBIAS*" + xdr.suffix(2)))
        // Sailing away from the line, no time to it.
        boat.sail(for: 2, course: 180)
        #expect(boat.engine.values.startLine?.timeToLine == nil)
    }

    @Test("over early: raised at the gun with the bow over the line, said, cleared when back behind it")
    func overEarly() throws {
        let origin = GeoPoint(latitude: 50.7, longitude: -1.3)
        var boat = Boat(at: origin)
        let west = Geodesic.wgs84.direct(from: origin, azimuth: 270, distance: 150).point
        boat.engine.startLine = StartLine(
            port: Geodesic.wgs84.direct(from: west, azimuth: 0, distance: 40).point,
            starboard: Geodesic.wgs84.direct(from: west, azimuth: 0, distance: 40).point)
        #expect(!boat.engine.startLine.isComplete)
        boat.engine.startLine.starboard =
            Geodesic.wgs84.direct(
                from: boat.engine.startLine.port!, azimuth: 90, distance: 300
            ).point
        #expect(boat.engine.alarms.first { $0.path == "navigation.racing.overEarly" } == nil)
        boat.sail(for: 1, knots: 0)
        #expect(boat.engine.alarms.first { $0.path == "navigation.racing.overEarly" }?.isActive == false)
        boat.engine.raceTimer = RaceTimer(sequenceMinutes: [0.5, 0])
        boat.engine.raceTimer.start(at: boat.time)
        // 30 s to the gun; the bow crosses the line (40 m away) after about 12 s at 5 kn.
        boat.sail(for: 29)
        #expect(boat.engine.values.startLine!.isOver)
        #expect(!boat.sent.contains { $0.contains(",151,A,") })
        boat.sail(for: 3)
        #expect(boat.sent.contains { $0.contains(",151,A,V,Over early") })
        // Acknowledged from the plotter: the next ALR says so at once.
        let plotter = boat.engine.source(named: "plotter")
        #expect(boat.engine.ingest(encoded(ACK(alarmNumber: 151), talker: "EC"), from: plotter, at: boat.time) == .used)
        boat.sail(for: 1)
        #expect(boat.sent.last { $0.contains(",151,") }?.contains(",151,A,A,Over early") == true)
        #expect(boat.said.contains("over early"))
        boat.sail(for: 30, course: 180)  // back behind the line, to start again
        #expect(boat.sent.last { $0.contains(",151,") }?.contains(",151,V,V,Over early") == true)

        // A clean start: behind the line at the gun, nothing raised.
        var clean = Boat(at: origin)
        clean.engine.startLine = boat.engine.startLine
        clean.engine.raceTimer = RaceTimer(sequenceMinutes: [0.5, 0])
        clean.engine.raceTimer.start(at: clean.time)
        clean.sail(for: 40, knots: 1)
        #expect(!clean.sent.contains { $0.contains(",151,A,") })
    }
}
