/// Navigation: 129283 cross-track error, 129284 navigation data, 129285 route and waypoint information.

/// 129283 Cross Track Error, 129284 Navigation Data, 129285 Route/WP Information: route guidance, as a plotter or a
/// pilot reads it. Distances in metres, bearings in radians (true unless said), speeds in m/s.
public struct CrossTrackError: Hashable, Sendable {
    public var sid: Int?
    /// canboat's RESIDUAL_MODE: 0 autonomous, 1 differential, 2 estimated, 3 simulator, 4 manual.
    public var mode: Int?
    public var terminated: Bool?
    /// Metres; positive when the boat is right of the course line (steer left), as NMEA 2000 and Signal K have it.
    public var xte: Double?

    public init(sid: Int? = nil, mode: Int? = 0, terminated: Bool = false, xte: Double?) {
        self.sid = sid
        self.mode = mode
        self.terminated = terminated
        self.xte = xte
    }

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.CrossTrackError
        sid = reader.integer(F.sid)
        mode = reader.integer(F.xteMode)
        terminated = reader.integer(F.navigationTerminated).map { $0 == 1 }
        xte = reader.value(F.xte)
    }

    public var payload: N2KPayload {
        typealias F = CanboatPGNs.CrossTrackError
        var w = N2KWriter(count: 8)
        F.sid.write(sid.map(Double.init), into: &w)
        F.xteMode.writeRaw(Int64(mode ?? 15), into: &w)
        w.put(0x3, at: 12, length: 2)
        F.navigationTerminated.writeRaw(terminated.map { $0 ? 1 : 0 } ?? 3, into: &w)
        F.xte.write(xte, into: &w)
        return N2KPayload(w.bytes)
    }
}

extension CrossTrackError {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let x = self
        return [
            ("sid", .integer(x.sid)), ("xteMode", .integer(x.mode)), ("navigationTerminated", .flag(x.terminated)),
            ("xte", .number(x.xte)),
        ]
    }
}

public struct NavigationData: Hashable, Sendable {
    public var sid: Int?
    public var distanceToWaypoint: Double?
    /// 0 true, 1 magnetic.
    public var bearingReference: Int?
    public var perpendicularCrossed: Bool?
    public var arrivalCircleEntered: Bool?
    /// 0 great circle, 1 rhumb line.
    public var calculationType: Int?
    /// Seconds since midnight and days since 1970 of the arrival.
    public var etaTime: Double?
    public var etaDate: Int?
    public var bearingOriginToDestination: Double?
    public var bearingToDestination: Double?
    public var originWaypoint: Int?
    public var destinationWaypoint: Int?
    public var destinationLatitude: Double?
    public var destinationLongitude: Double?
    /// Positive closing.
    public var closingVelocity: Double?

    public init() {}

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.NavigationData
        sid = reader.integer(F.sid)
        distanceToWaypoint = reader.value(F.distanceToWaypoint)
        bearingReference = reader.integer(F.courseBearingReference)
        perpendicularCrossed = reader.integer(F.perpendicularCrossed).map { $0 == 1 }
        arrivalCircleEntered = reader.integer(F.arrivalCircleEntered).map { $0 == 1 }
        calculationType = reader.integer(F.calculationType)
        etaTime = reader.value(F.etaTime)
        etaDate = reader.integer(F.etaDate)
        bearingOriginToDestination = reader.value(F.bearingOriginToDestinationWaypoint)
        bearingToDestination = reader.value(F.bearingPositionToDestinationWaypoint)
        originWaypoint = reader.integer(F.originWaypointNumber)
        destinationWaypoint = reader.integer(F.destinationWaypointNumber)
        destinationLatitude = reader.value(F.destinationLatitude)
        destinationLongitude = reader.value(F.destinationLongitude)
        closingVelocity = reader.value(F.waypointClosingVelocity)
    }

    public var payload: N2KPayload {
        typealias F = CanboatPGNs.NavigationData
        var w = N2KWriter(count: 34)
        F.sid.write(sid.map(Double.init), into: &w)
        F.distanceToWaypoint.write(distanceToWaypoint, into: &w)
        F.courseBearingReference.writeRaw(Int64(bearingReference ?? 0), into: &w)
        F.perpendicularCrossed.writeRaw(perpendicularCrossed.map { $0 ? 1 : 0 } ?? 3, into: &w)
        F.arrivalCircleEntered.writeRaw(arrivalCircleEntered.map { $0 ? 1 : 0 } ?? 3, into: &w)
        F.calculationType.writeRaw(Int64(calculationType ?? 0), into: &w)
        F.etaTime.write(etaTime, into: &w)
        F.etaDate.write(etaDate.map(Double.init), into: &w)
        F.bearingOriginToDestinationWaypoint.write(bearingOriginToDestination, into: &w)
        F.bearingPositionToDestinationWaypoint.write(bearingToDestination, into: &w)
        F.originWaypointNumber.write(originWaypoint.map(Double.init), into: &w)
        F.destinationWaypointNumber.write(destinationWaypoint.map(Double.init), into: &w)
        F.destinationLatitude.write(destinationLatitude, into: &w)
        F.destinationLongitude.write(destinationLongitude, into: &w)
        F.waypointClosingVelocity.write(closingVelocity, into: &w)
        return N2KPayload(w.bytes.prefix(34))
    }
}

extension NavigationData {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let d = self
        return [
            ("sid", .integer(d.sid)), ("distanceToWaypoint", .number(d.distanceToWaypoint)),
            ("courseBearingReference", .integer(d.bearingReference)),
            ("perpendicularCrossed", .flag(d.perpendicularCrossed)),
            ("arrivalCircleEntered", .flag(d.arrivalCircleEntered)), ("calculationType", .integer(d.calculationType)),
            ("etaTime", .number(d.etaTime)), ("etaDate", .integer(d.etaDate)),
            ("bearingOriginToDestinationWaypoint", .number(d.bearingOriginToDestination)),
            ("bearingPositionToDestinationWaypoint", .number(d.bearingToDestination)),
            ("originWaypointNumber", .integer(d.originWaypoint)),
            ("destinationWaypointNumber", .integer(d.destinationWaypoint)),
            ("destinationLatitude", .number(d.destinationLatitude)),
            ("destinationLongitude", .number(d.destinationLongitude)),
            ("waypointClosingVelocity", .number(d.closingVelocity)),
        ]
    }
}

public struct RouteInformation: Hashable, Sendable {
    public struct Waypoint: Hashable, Sendable {
        public var id: Int?
        public var name: String
        public var latitude: Double?
        public var longitude: Double?

        public init(id: Int?, name: String, latitude: Double?, longitude: Double?) {
            self.id = id
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// The first waypoint's place in the route (a long route comes in several messages).
    public var start: Int?
    public var databaseId: Int?
    public var routeId: Int?
    /// 0 forward, 1 reverse.
    public var direction: Int?
    public var name: String
    public var waypoints: [Waypoint]

    public init(
        start: Int = 0, databaseId: Int = 0, routeId: Int = 0, direction: Int = 0, name: String,
        waypoints: [Waypoint]
    ) {
        self.start = start
        self.databaseId = databaseId
        self.routeId = routeId
        self.direction = direction
        self.name = name
        self.waypoints = waypoints
    }

    /// Nil when the message does not hold what it says (a count past its end, a name's length past it).
    public init?(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.NavigationRouteWpInformation
        start = reader.integer(F.startRps)
        let items = reader.integer(F.nitems) ?? 0
        databaseId = reader.integer(F.databaseId)
        routeId = reader.integer(F.routeId)
        direction = reader.integer(F.navigationDirectionInRoute)
        guard let (routeName, after) = reader.lauString(at: 9) else { return nil }
        name = routeName
        // A reserved byte, then each waypoint: its id (2 bytes), name, latitude and longitude (4 bytes each).
        var offset = after + 1
        waypoints = []
        for _ in 0..<min(items, 64) {
            guard offset + 2 <= reader.payload.count else { return nil }
            let id = Int(reader.payload[offset]) | Int(reader.payload[offset + 1]) << 8
            guard let (wpName, next) = reader.lauString(at: offset + 2), next + 8 <= reader.payload.count else {
                return nil
            }
            let latitude = reader.value(F.wpLatitude.moved(to: next * 8))
            let longitude = reader.value(F.wpLongitude.moved(to: (next + 4) * 8))
            waypoints.append(
                Waypoint(id: id == 0xFFFF ? nil : id, name: wpName, latitude: latitude, longitude: longitude))
            offset = next + 8
        }
    }

    public var payload: N2KPayload {
        typealias F = CanboatPGNs.NavigationRouteWpInformation
        var w = N2KWriter(count: 9)
        F.startRps.write(start.map(Double.init), into: &w)
        F.nitems.write(Double(waypoints.count), into: &w)
        F.databaseId.write(databaseId.map(Double.init), into: &w)
        F.routeId.write(routeId.map(Double.init), into: &w)
        F.navigationDirectionInRoute.writeRaw(Int64(direction ?? 0), into: &w)
        F.supplementaryRouteWpDataAvailable.writeRaw(0, into: &w)
        var offset = w.putLAU(name, at: 9)
        w.put(bytes: [0xFF], at: offset)
        offset += 1
        for waypoint in waypoints {
            let id = waypoint.id ?? 0xFFFF
            w.put(bytes: [UInt8(id & 0xFF), UInt8(id >> 8)], at: offset)
            let next = w.putLAU(waypoint.name, at: offset + 2)
            F.wpLatitude.moved(to: next * 8).write(waypoint.latitude, into: &w)
            F.wpLongitude.moved(to: (next + 4) * 8).write(waypoint.longitude, into: &w)
            offset = next + 8
        }
        return N2KPayload(w.bytes.prefix(223))
    }
}

extension RouteInformation {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let r = self
        var out: [(id: String, value: N2KFieldValue)] = [
            ("startRps", .integer(r.start)), ("nitems", .integer(r.waypoints.count)),
            ("databaseId", .integer(r.databaseId)),
            ("routeId", .integer(r.routeId)), ("navigationDirectionInRoute", .integer(r.direction)),
            ("routeName", .text(r.name)),
        ]
        for (index, waypoint) in r.waypoints.enumerated() {
            out.append(("list.\(index).wpId", .integer(waypoint.id)))
            out.append(("list.\(index).wpName", .text(waypoint.name)))
            out.append(("list.\(index).wpLatitude", .number(waypoint.latitude)))
            out.append(("list.\(index).wpLongitude", .number(waypoint.longitude)))
        }
        return out
    }
}
