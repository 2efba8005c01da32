import Engine
import Marine
import NMEA
import Router
import TestSupport
import Testing

@testable import Bridge
@testable import N2K

/// What goes onto the bus: the engine's values from a real engine fed real sentences (true wind, heading, guidance
/// while a route is followed), one SID a tick, nothing the bus gave sent back, the conversions held and merged.
@Suite struct OutboundTests {
    static func sentence(_ body: String) -> Sentence {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let digits = Array("0123456789ABCDEF")
        return try! Sentence(
            parsing: "$" + body + "*" + String([digits[Int(sum >> 4)], digits[Int(sum & 15)]]) + "\r\n")
    }

    /// A boat sailing north at 6 kn with the wind 40° on the starboard bow, following a route of two legs north:
    /// the reports of its ticks over `seconds`.
    static func reports(seconds: Int = 12, source: String = "instruments") -> (
        reports: [EngineReport], source: SourceID
    ) {
        // On a thread of its own: the engine's tick in a debug build wants more stack than a test task has.
        nonisolated(unsafe) var result: ([EngineReport], SourceID) = ([], SourceID(0))
        let thread = TestThread { result = Self.sail(seconds: seconds, source: source) }
        thread.join()
        return result
    }

    static func sail(seconds: Int, source: String) -> ([EngineReport], SourceID) {
        var router = Router(engine: Engine(), outputs: [])
        let source = router.source(named: source)
        let route = Route(
            name: "North",
            waypoints: [
                Waypoint(id: "START", position: GeoPoint(latitude: 50.0, longitude: -1.0)),
                Waypoint(id: "MID", position: GeoPoint(latitude: 50.2, longitude: -1.0)),
                Waypoint(id: "END", position: GeoPoint(latitude: 50.4, longitude: -1.0)),
            ])
        router.follow(route)
        var reports: [EngineReport] = []
        for tenth in 0..<(seconds * 10) {
            let time = Double(tenth) / 10
            if tenth % 10 == 0 {
                let second = tenth / 10
                let latitude = 50.0 + Double(second) * 6 / 3600 / 60
                let minutes = (latitude - 50) * 60
                let lat = String(format2: 5000 + minutes)
                for body in [
                    "GPRMC,1200\(String(second, width: 2)).00,A,\(lat),N,00100.0100,W,6.0,0.0,010626,,,A",
                    "IIHDT,0.0,T", "IIVHW,,T,,M,6.0,N,11.1,K", "WIMWV,40.0,R,15.0,N,A",
                ] {
                    router.ingest(sentence(body), from: source, at: time) { _ in }
                }
            }
            router.tick(at: time) { if case .report(let report) = $0 { reports.append(report) } }
        }
        return (reports, source)
    }

    static func decode(_ outgoing: N2KOutbound.Outgoing) -> N2KValue {
        N2KValue.decode(
            N2KMessage(pgn: outgoing.pgn, priority: outgoing.priority, source: 1, payload: outgoing.payload)
        )
        .value
    }

    @Test("true wind (boat- and ground-referenced), apparent wind and heading from the engine, one SID a tick")
    func computed() throws {
        let (reports, _) = Self.reports()
        var outbound = N2KOutbound()
        var last: [N2KOutbound.Outgoing] = []
        var lastReport: EngineReport?
        for report in reports {
            var out: [N2KOutbound.Outgoing] = []
            outbound.report(report, bus: .init(), at: report.time) { out.append($0) }
            if !out.isEmpty {
                last = out
                lastReport = report
            }
        }
        let report = try #require(lastReport)
        let values = last.map(Self.decode)
        var sids: Set<Int?> = []
        var winds: [WindData] = []
        for value in values {
            switch value {
            case .wind(let wind):
                winds.append(wind)
                sids.insert(wind.sid)
            case .heading(let heading):
                sids.insert(heading.sid)
                #expect(heading.reference == .trueNorth && abs(heading.heading! - 0) < 0.001)
            case .crossTrack(let xte): sids.insert(xte.sid)
            case .navigation(let navigation): sids.insert(navigation.sid)
            default: break
            }
        }
        #expect(sids.count == 1 && sids.first! != nil, "one SID for the tick: \(sids)")
        let trueWind = try #require(report.values.trueWind)
        let boat = try #require(winds.first { $0.reference == .trueBoat })
        #expect(abs(boat.speed! - trueWind.speed) < 0.006)
        #expect(abs(Angle.relative(Angle.degrees(boat.angle!)) - trueWind.angle) < 0.006)
        let apparent = try #require(winds.first { $0.reference == .apparent })
        #expect(abs(Angle.degrees(apparent.angle!) - report.values.apparentWind!.angle) < 0.006)
        if let direction = report.values.groundWindDirection {
            let ground = try #require(winds.first { $0.reference == .trueNorth })
            #expect(abs(Angle.degrees(ground.angle!) - direction) < 0.006)
        }
    }

    @Test("while a route is followed: 129283 with the engine's cross-track sign, 129284 and the route in 129285")
    func guidance() throws {
        let (reports, _) = Self.reports(seconds: 3)
        var outbound = N2KOutbound()
        var values: [N2KValue] = []
        for report in reports {
            outbound.report(report, bus: .init(), at: report.time) { values.append(Self.decode($0)) }
        }
        let solution = try #require(reports.last?.values.navigation)
        let xte = try #require(values.compactMap { if case .crossTrack(let x) = $0 { x } else { nil } }.last)
        #expect(abs(xte.xte! - solution.crossTrack) < 0.011, "positive right of the track, as the engine's")
        let navigation = try #require(values.compactMap { if case .navigation(let n) = $0 { n } else { nil } }.last)
        #expect(abs(navigation.destinationLatitude! - 50.2) < 1e-7 && navigation.destinationWaypoint == 1)
        #expect(abs(navigation.distanceToWaypoint! - solution.distanceToWaypoint) < 0.011)
        let route = try #require(values.compactMap { if case .route(let r) = $0 { r } else { nil } }.first)
        #expect(route.name == "North" && route.waypoints.map(\.name) == ["START", "MID", "END"])
        #expect(
            values.filter { if case .route = $0 { true } else { false } }.count == 1, "once, until it changes or 10 s")
    }

    @Test("nothing the bus gave goes back: the apparent wind and heading from the bus are not sent")
    func notBack() {
        let (reports, _) = Self.reports(seconds: 2)
        var outbound = N2KOutbound()
        var values: [N2KValue] = []
        for report in reports {
            outbound.report(report, bus: .init(wind: true, heading: true), at: report.time) {
                values.append(Self.decode($0))
            }
        }
        #expect(!values.contains { if case .heading = $0 { true } else { false } })
        #expect(!values.contains { if case .wind(let w) = $0 { w.reference == .apparent } else { false } })
        #expect(values.contains { if case .wind(let w) = $0 { w.reference == .trueBoat } else { false } }, "computed")
    }

    @Test("forecast wind never goes onto the bus")
    func forecast() {
        var (reports, _) = Self.reports(seconds: 2)
        for index in reports.indices { reports[index].values.windIsForecast = true }
        var outbound = N2KOutbound()
        var values: [N2KValue] = []
        for report in reports {
            outbound.report(report, bus: .init(), at: report.time) { values.append(Self.decode($0)) }
        }
        #expect(!values.contains { if case .wind = $0 { true } else { false } })
    }

    @Test("a converted value is sent when it comes, repeated each second, and let go after the hold time (4 s)")
    func hold() {
        var settings = N2KOutbound.Settings()
        settings.convert = [.depth]
        var outbound = N2KOutbound(settings: settings)
        var times: [Double] = []
        outbound.sentence(Self.sentence("SDDPT,12.3,0.5,"), at: 0) { _ in times.append(0) }
        for tenth in 1...80 {
            let time = Double(tenth) / 10
            outbound.tick(at: time) { _ in times.append(time) }
        }
        #expect(times == [0, 1, 2, 3, 4], "\(times)")
        var others: [N2KOutbound.Outgoing] = []
        outbound.sentence(Self.sentence("WIMWV,40.0,R,15.0,N,A"), at: 9) { others.append($0) }
        #expect(others.isEmpty, "wind is not converted unless asked for")
    }

    @Test("RMC and GGA within 50 ms make one position: 129025, 129026, 129029 and 126992 once each")
    func merge() throws {
        var outbound = N2KOutbound()
        var out: [N2KOutbound.Outgoing] = []
        outbound.sentence(
            Self.sentence("GPRMC,120000.00,A,5000.0000,N,00100.0000,W,6.0,45.0,010626,,,A"), at: 10
        ) { out.append($0) }
        outbound.sentence(
            Self.sentence("GPGGA,120000.00,5000.0000,N,00100.0000,W,2,09,0.9,12.0,M,47.0,M,,"), at: 10.02
        ) {
            out.append($0)
        }
        #expect(out.isEmpty, "held for the merge window")
        outbound.tick(at: 10.06) { out.append($0) }
        #expect(out.map(\.pgn) == [129025, 129026, 129029, 126992])
        guard case .gnss(let gnss) = Self.decode(out[2]), case .systemTime(let time) = Self.decode(out[3]),
            case .course(let course) = Self.decode(out[1])
        else {
            Issue.record("\(out)")
            return
        }
        #expect(gnss.method == 2 && gnss.satellites == 9 && abs(gnss.hdop! - 0.9) < 0.01 && gnss.altitude == 12)
        #expect(gnss.date == 20605 && gnss.time == 43200 && time.unixTime == 20605 * 86_400 + 43200)
        #expect(
            abs(Angle.degrees(course.course!) - 45) < 0.01
                && abs(course.speed! - Units.metresPerSecond(knots: 6)) < 0.01)
    }

    @Test("AIS from an 0183 receiver: VDM type 1 becomes 129038 with the same values")
    func ais() throws {
        var report = AISReport(messageType: 1, mmsi: 235_009_802)
        report.position = AISReport.Position(
            latitude: 50.1234, longitude: -1.2345, speedOverGround: 14.2, courseOverGround: 123.4, heading: 125,
            rateOfTurn: 8, navigationStatus: 0, isAccurate: true, second: 30)
        var bus = N2KBus(settings: N2KBus.Settings(node: NodeSettings.standard))
        var frames: [CANFrame] = []
        bus.start(at: 0) { if case .frame(let f) = $0 { frames.append(f) } }
        bus.tick(at: 0.3) { _ in }
        frames.removeAll()
        for sentence in report.positionBits().sentences() {
            bus.passed(sentence, at: 1) { if case .frame(let f) = $0 { frames.append(f) } }
        }
        var receiver = N2KReceiver()
        var messages: [N2KMessage] = []
        for frame in frames { receiver.feed(frame, at: 1) { messages.append($0) } }
        let message = try #require(messages.first { $0.pgn == 129038 })
        guard case .aisPosition(let n2k) = N2KValue.decode(message).value else {
            Issue.record("\(messages)")
            return
        }
        #expect(n2k.mmsi == 235_009_802 && n2k.navigationStatus == 0 && n2k.timeStamp == 30 && n2k.accurate == true)
        #expect(abs(n2k.latitude! - 50.1234) < 2e-6 && abs(n2k.longitude! - -1.2345) < 2e-6)
        #expect(abs(Units.knots(metresPerSecond: n2k.speed!) - 14.2) < 0.02)
        #expect(abs(Angle.degrees(n2k.course!) - 123.4) < 0.01 && abs(Angle.degrees(n2k.heading!) - 125) < 0.01)
    }
}

enum NodeSettings {
    static let standard = N2KNode.Settings(
        name: DeviceName(uniqueNumber: 77, manufacturer: 2046, function: 135, deviceClass: 25), preferredAddress: 35,
        product: ProductInformation(
            productCode: 1, model: "Telltale", software: "test", modelVersion: "", serial: "77"),
        configuration: ConfigurationInformation(installation1: "", installation2: "", manufacturer: "Telltale"),
        transmits: [130306], receives: [130306])
}

extension String {
    init(_ value: Int, width: Int) {
        var text = String(value)
        while text.count < width { text = "0" + text }
        self = text
    }

    /// `5000.1234`-style minutes with four decimals.
    init(format2 value: Double) {
        let whole = Int(value)
        let fraction = Int(((value - Double(whole)) * 10_000).rounded())
        self = String(whole) + "." + String(fraction, width: 4)
    }
}
