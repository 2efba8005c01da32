import Marine
import NMEA

/// One station heard on AIS: what its messages said, merged (position reports and static data come apart), with
/// when it was last heard and, once judged, how close it comes.
public struct AISTarget: Hashable, Sendable {
    public var mmsi: UInt32
    public var station: AISReport.Station
    public var isClassB = false
    public var position: GeoPoint?
    /// m/s over ground.
    public var speedOverGround: Double?
    /// Degrees true.
    public var courseOverGround: Double?
    public var heading: Double?
    /// Degrees a minute, positive to starboard.
    public var rateOfTurn: Double?
    /// ITU-R M.1371 (0 under way using engine, 1 at anchor, 5 moored, 7 fishing, 8 sailing, 14 AIS-SART active, 15
    /// not defined); class A only.
    public var navigationStatus: Int?
    public var name: String?
    public var callsign: String?
    public var imo: UInt32?
    public var shipType: Int?
    public var toBow: Int?
    public var toStern: Int?
    public var toPort: Int?
    public var toStarboard: Int?
    public var draught: Double?
    public var destination: String?
    public var aid: AISReport.AidToNavigation?
    /// Engine time of the last message of any kind, and of the last position.
    public var lastHeard: Double
    public var positionTime: Double?
    /// How close it comes, at the last judgement (own position, course and speed known, its own too).
    public var approach: ClosestApproach?

    public init(mmsi: UInt32, station: AISReport.Station, lastHeard: Double) {
        self.mmsi = mmsi
        self.station = station
        self.lastHeard = lastHeard
    }

    public var length: Int? { toBow.flatMap { bow in toStern.map { bow + $0 } }.flatMap { $0 > 0 ? $0 : nil } }
    public var beam: Int? { toPort.flatMap { port in toStarboard.map { port + $0 } }.flatMap { $0 > 0 ? $0 : nil } }

    /// Seconds without a report after which it is lost (IEC 62388, from the reporting intervals of ITU-R M.1371):
    /// class A at anchor or moored and under 3 kn 18 min, else 60 s up to 14 kn, 36 s to 23 kn, 30 s above; class B
    /// 18 min under 2 kn, else 3 min; aids to navigation and distress beacons 18 min; SAR aircraft and base stations
    /// 60 s.
    public var lostAfter: Double {
        let knots = (speedOverGround ?? 0) / Units.metresPerSecond(knots: 1)
        switch station {
        case .aidToNavigation, .searchAndRescueTransponder, .manOverboard, .epirb: return 1080
        case .searchAndRescueAircraft, .baseStation: return 60
        case .vessel: break
        }
        if isClassB { return knots <= 2 ? 1080 : 180 }
        if navigationStatus == 1 || navigationStatus == 5 { return knots <= 3 ? 1080 : 60 }
        return knots <= 14 ? 60 : knots <= 23 ? 36 : 30
    }

    public func isLost(at time: Double) -> Bool { time - lastHeard > lostAfter }

    /// An AIS-SART, MOB device or EPIRB.
    public var isDistress: Bool {
        station == .searchAndRescueTransponder || station == .manOverboard || station == .epirb
    }

    /// Where it is at `time`: its last position run on at its course and speed (a class B vessel reports every
    /// 30 s, so the position it sent is up to half a mile behind a fast boat).
    public func position(at time: Double) -> GeoPoint? {
        guard let position, let positionTime else { return nil }
        let age = time - positionTime
        guard age > 0, let speed = speedOverGround, let course = courseOverGround, speed > 0.05 else {
            return position
        }
        return Geodesic.wgs84.direct(from: position, azimuth: course, distance: speed * min(age, 600)).point
    }

    /// Takes what a message says; values it leaves out are kept from before.
    mutating func take(_ report: AISReport, at time: Double) {
        lastHeard = time
        if let p = report.position {
            if let latitude = p.latitude, let longitude = p.longitude {
                position = GeoPoint(latitude: latitude, longitude: longitude)
                positionTime = time
                speedOverGround = p.speedOverGround.map { Units.metresPerSecond(knots: $0) }
                courseOverGround = p.courseOverGround
                heading = p.heading
                rateOfTurn = p.rateOfTurn
            }
            isClassB = p.isClassB
            if let status = p.navigationStatus { navigationStatus = status }
        }
        if let s = report.statics {
            name = s.name ?? name
            callsign = s.callsign ?? callsign
            imo = s.imo ?? imo
            shipType = s.shipType ?? shipType
            if s.toBow != nil || s.toStern != nil {
                (toBow, toStern, toPort, toStarboard) = (s.toBow, s.toStern, s.toPort, s.toStarboard)
            }
            draught = s.draught ?? draught
            destination = s.destination ?? destination
            if report.messageType == 24 { isClassB = true }
        }
        if let aid = report.aid { self.aid = aid }
    }
}

/// Every AIS station heard, kept within a fixed number: a message updates its station's entry, a lost one is
/// forgotten 400 s after it was lost (as a plotter clears its lost-target mark), and when the table is full the
/// station heard longest ago makes room. Pure: times come in as arguments.
public struct AISTargets: Sendable {
    /// The most stations kept (a busy port's VHF range holds a few hundred).
    public static let capacity = 256
    /// Seconds a lost target stays listed, marked lost.
    public static let keepLost = 400.0

    public private(set) var targets: [AISTarget] = []
    /// Messages taken, and fields read as nil because they could not be true (counted, never shown).
    public private(set) var messages = 0
    public private(set) var implausibleFields = 0
    /// Stations dropped to make room.
    public private(set) var evicted = 0
    /// Counts every change of the table (a message taken, a judgement, a station forgotten).
    public private(set) var revision = 0

    public init() {}

    public func target(_ mmsi: UInt32) -> AISTarget? { targets.first { $0.mmsi == mmsi } }

    /// Takes one message; MMSI 0 (no station) is refused.
    public mutating func take(_ report: AISReport, at time: Double) {
        guard report.mmsi != 0 else { return }
        messages += 1
        revision &+= 1
        implausibleFields += report.implausible
        if let index = targets.firstIndex(where: { $0.mmsi == report.mmsi }) {
            targets[index].take(report, at: time)
            return
        }
        if targets.count >= Self.capacity,
            let oldest = targets.indices.min(by: { targets[$0].lastHeard < targets[$1].lastHeard })
        {
            targets.remove(at: oldest)
            evicted += 1
        }
        var target = AISTarget(mmsi: report.mmsi, station: report.station, lastHeard: time)
        target.take(report, at: time)
        targets.append(target)
    }

    /// Forgets the stations lost for longer than ``keepLost``, and judges how close each of the others comes to
    /// the own vessel (nil without the own position, course and speed, or the target's).
    public mutating func judge(own: GeoPoint?, course: Double?, speed: Double?, at time: Double) {
        revision &+= 1
        targets.removeAll { time - $0.lastHeard > $0.lostAfter + Self.keepLost || time < $0.lastHeard - 60 }
        for index in targets.indices {
            let target = targets[index]
            guard !target.isLost(at: time), let own, let here = target.position(at: time) else {
                targets[index].approach = nil
                continue
            }
            targets[index].approach = ClosestApproach(
                own: own, ownCourse: course ?? 0, ownSpeed: speed ?? 0, target: here,
                targetCourse: target.courseOverGround ?? 0, targetSpeed: target.speedOverGround ?? 0)
        }
    }
}
