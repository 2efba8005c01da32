import Marine
import N2K
import NMEA

/// AIS both ways between the buses, re-encoded as the commercial gateways do it: an NMEA 2000 AIS message becomes the
/// ITU-R M.1371 message it stands for (`!AIVDM`, so the engine's AIS table, its CPA and collision alarm, and every
/// 0183 plotter read it), and an 0183 receiver's message becomes the PGN an NMEA 2000 plotter reads.
///
/// | NMEA 2000 | AIS message |
/// |---|---|
/// | 129038 class A position | 1 (2, 3 kept as sent) |
/// | 129039 class B position | 18 |
/// | 129040 class B extended position | 18 and 24 (A and B): message 19 is rare and not every plotter reads it |
/// | 129041 aid to navigation | 21 |
/// | 129794 class A static and voyage | 5 |
/// | 129809 / 129810 class B static, parts A and B | 24 A / 24 B |
public enum AISConversion {
    // MARK: 2000 to 0183

    public static func report(_ n2k: AISPosition) -> AISReport? {
        guard let mmsi = n2k.mmsi, mmsi > 0 else { return nil }
        var position = AISReport.Position(
            latitude: n2k.latitude, longitude: n2k.longitude,
            speedOverGround: n2k.speed.map { min(Units.knots(metresPerSecond: $0), 102.2) },
            courseOverGround: n2k.course.map { Angle.direction(Angle.degrees($0)) },
            heading: n2k.heading.map { Angle.direction(Angle.degrees($0)) },
            rateOfTurn: n2k.rateOfTurn.map { Angle.degrees($0) * 60 }, navigationStatus: n2k.navigationStatus,
            isAccurate: n2k.accurate == true, second: n2k.timeStamp.flatMap { $0 < 60 ? $0 : nil },
            isClassB: n2k.pgn == 129039 || n2k.pgn == 129040)
        var type = n2k.messageId ?? 1
        switch n2k.pgn {
        case 129038: if !(1...3).contains(type) { type = 1 }
        case 129039, 129040: type = 18
        default: type = 21
        }
        var report = AISReport(messageType: type, repeatIndicator: n2k.repeatIndicator ?? 0, mmsi: mmsi)
        if type == 21 {
            position.rateOfTurn = nil
            report.aid = AISReport.AidToNavigation(
                type: n2k.atonType ?? 0, isVirtual: n2k.virtual == true, isOffPosition: n2k.offPosition)
        }
        report.position = position
        if n2k.pgn == 129040 || n2k.pgn == 129041 {
            var statics = AISReport.Statics()
            statics.name = n2k.name
            statics.shipType = n2k.shipType
            dimensions(
                &statics, length: n2k.length, beam: n2k.beam, fromBow: n2k.fromBow, fromStarboard: n2k.fromStarboard)
            report.statics = statics
        }
        return report
    }

    public static func report(_ n2k: AISStatic) -> AISReport? {
        guard let mmsi = n2k.mmsi, mmsi > 0 else { return nil }
        var statics = AISReport.Statics()
        statics.name = n2k.name
        statics.callsign = n2k.callsign
        statics.imo = n2k.imo.flatMap { $0 > 0 ? UInt32(truncatingIfNeeded: $0) : nil }
        statics.shipType = n2k.shipType
        dimensions(&statics, length: n2k.length, beam: n2k.beam, fromBow: n2k.fromBow, fromStarboard: n2k.fromStarboard)
        statics.draught = n2k.draft
        statics.destination = n2k.destination
        if let days = n2k.etaDate, days > 0 {
            let date = UTCDate(daysSinceEpoch: days)
            let seconds = n2k.etaTime.map { Int($0) }
            statics.eta = AISReport.ETA(
                month: date.month, day: date.day, hour: seconds.map { $0 / 3600 }, minute: seconds.map { $0 / 60 % 60 })
        }
        statics.part = n2k.part
        var report = AISReport(
            messageType: n2k.pgn == 129794 ? 5 : 24, repeatIndicator: n2k.repeatIndicator ?? 0, mmsi: mmsi)
        report.statics = statics
        return report
    }

    static func dimensions(
        _ statics: inout AISReport.Statics, length: Double?, beam: Double?, fromBow: Double?, fromStarboard: Double?
    ) {
        if let length, let fromBow, length >= fromBow {
            statics.toBow = Int(fromBow.rounded())
            statics.toStern = Int((length - fromBow).rounded())
        }
        if let beam, let fromStarboard, beam >= fromStarboard {
            statics.toStarboard = Int(fromStarboard.rounded())
            statics.toPort = Int((beam - fromStarboard).rounded())
        }
    }

    /// The `!AIVDM` sentences of an NMEA 2000 AIS message (none when it names no station).
    public static func sentences(_ n2k: AISPosition) -> [Sentence] {
        guard let report = report(n2k) else { return [] }
        if report.messageType == 21 { return report.aidBits().sentences() }
        var out = report.positionBits().sentences()
        if n2k.pgn == 129040, var statics = report.statics {
            var partA = report
            statics.part = 0
            partA.messageType = 24
            partA.statics = statics
            out += partA.classBStaticBits().sentences()
            statics.part = 1
            partA.statics = statics
            out += partA.classBStaticBits().sentences()
        }
        return out
    }

    public static func sentences(_ n2k: AISStatic) -> [Sentence] {
        guard let report = report(n2k) else { return [] }
        return report.messageType == 5 ? report.staticBits().sentences() : report.classBStaticBits().sentences()
    }

    // MARK: 0183 to 2000

    /// The NMEA 2000 message of an AIS report read from an 0183 receiver (nil for the message types NMEA 2000 plotters
    /// do not read here: base stations, binary messages).
    public static func message(_ report: AISReport) -> (pgn: UInt32, payload: N2KPayload)? {
        switch report.messageType {
        case 1, 2, 3, 18, 19:
            guard let p = report.position else { return nil }
            var n2k = AISPosition(pgn: p.isClassB ? 129039 : 129038, mmsi: report.mmsi)
            n2k.messageId = report.messageType == 19 ? 18 : report.messageType
            n2k.repeatIndicator = report.repeatIndicator
            place(&n2k, p)
            n2k.rateOfTurn = p.rateOfTurn.map { Angle.radians($0) / 60 }
            n2k.navigationStatus = p.navigationStatus
            return (n2k.pgn, n2k.payload)
        case 21:
            var n2k = AISPosition(pgn: 129041, mmsi: report.mmsi)
            n2k.messageId = 21
            n2k.repeatIndicator = report.repeatIndicator
            if let p = report.position { place(&n2k, p) }
            n2k.atonType = report.aid?.type
            n2k.virtual = report.aid?.isVirtual
            n2k.offPosition = report.aid?.isOffPosition
            n2k.name = report.statics?.name
            if let s = report.statics { size(s, &n2k.length, &n2k.beam, &n2k.fromBow, &n2k.fromStarboard) }
            return (n2k.pgn, n2k.payload)
        case 5, 24:
            guard let s = report.statics else { return nil }
            let pgn: UInt32 = report.messageType == 5 ? 129794 : (s.part == 0 ? 129809 : 129810)
            var n2k = AISStatic(pgn: pgn, mmsi: report.mmsi)
            n2k.messageId = report.messageType
            n2k.repeatIndicator = report.repeatIndicator
            n2k.name = s.name
            n2k.callsign = s.callsign
            n2k.imo = s.imo.map { Int($0) }
            n2k.shipType = s.shipType
            size(s, &n2k.length, &n2k.beam, &n2k.fromBow, &n2k.fromStarboard)
            n2k.draft = s.draught
            n2k.destination = s.destination
            return (pgn, n2k.payload)
        default:
            return nil
        }
    }

    private static func place(_ n2k: inout AISPosition, _ p: AISReport.Position) {
        n2k.latitude = p.latitude
        n2k.longitude = p.longitude
        n2k.accurate = p.isAccurate
        n2k.timeStamp = p.second
        n2k.course = p.courseOverGround.map(Angle.radians)
        n2k.speed = p.speedOverGround.map { Units.metresPerSecond(knots: $0) }
        n2k.heading = p.heading.map(Angle.radians)
    }

    private static func size(
        _ s: AISReport.Statics, _ length: inout Double?, _ beam: inout Double?, _ fromBow: inout Double?,
        _ fromStarboard: inout Double?
    ) {
        if let bow = s.toBow, let stern = s.toStern, bow + stern > 0 {
            length = Double(bow + stern)
            fromBow = Double(bow)
        }
        if let port = s.toPort, let starboard = s.toStarboard, port + starboard > 0 {
            beam = Double(port + starboard)
            fromStarboard = Double(starboard)
        }
    }
}
