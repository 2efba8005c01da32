/// A decoded message's fields under canboat's field ids and in its units (radians, m/s, metres, kelvin, pascals,
/// seconds; a lookup as its number): what `telltale n2k --decode` prints, so that its output can be held field by
/// field against any decoder built on canboat's database (the decode check holds it against PyPI's `nmea2000`).
public enum N2KFieldValue: Equatable, Sendable {
    case number(Double?)
    case text(String?)
}

extension N2KValue {
    /// The fields Telltale reads of the message, in canboat's order; empty for `.other`.
    public var fields: [(id: String, value: N2KFieldValue)] {
        func n(_ value: Double?) -> N2KFieldValue { .number(value) }
        func i(_ value: Int?) -> N2KFieldValue { .number(value.map(Double.init)) }
        func b(_ value: Bool?) -> N2KFieldValue { .number(value.map { $0 ? 1 : 0 }) }
        switch self {
        case .heading(let h):
            return [
                ("sid", i(h.sid)), ("heading", n(h.heading)), ("deviation", n(h.deviation)),
                ("variation", n(h.variation)), ("reference", i(h.reference?.rawValue)),
            ]
        case .rateOfTurn(let r): return [("sid", i(r.sid)), ("rate", n(r.rate))]
        case .attitude(let a):
            return [("sid", i(a.sid)), ("yaw", n(a.yaw)), ("pitch", n(a.pitch)), ("roll", n(a.roll))]
        case .variation(let v):
            return [
                ("sid", i(v.sid)), ("source", i(v.source)), ("ageOfService", i(v.ageOfService)),
                ("variation", n(v.variation)),
            ]
        case .rudder(let r):
            return [
                ("instance", i(r.instance)), ("directionOrder", i(r.directionOrder)), ("angleOrder", n(r.angleOrder)),
                ("position", n(r.position)),
            ]
        case .speed(let s):
            return [
                ("sid", i(s.sid)), ("speedWaterReferenced", n(s.throughWater)),
                ("speedGroundReferenced", n(s.overGround)),
            ]
        case .depth(let d):
            return [("sid", i(d.sid)), ("depth", n(d.depth)), ("offset", n(d.offset)), ("range", n(d.range))]
        case .log(let l):
            return [("date", i(l.date)), ("time", n(l.time)), ("log", n(l.log)), ("tripLog", n(l.tripLog))]
        case .position(let p): return [("latitude", n(p.latitude)), ("longitude", n(p.longitude))]
        case .course(let c):
            return [("sid", i(c.sid)), ("cogReference", i(c.reference)), ("cog", n(c.course)), ("sog", n(c.speed))]
        case .gnss(let g):
            return [
                ("sid", i(g.sid)), ("date", i(g.date)), ("time", n(g.time)), ("latitude", n(g.latitude)),
                ("longitude", n(g.longitude)), ("altitude", n(g.altitude)), ("method", i(g.method)),
                ("numberOfSvs", i(g.satellites)), ("hdop", n(g.hdop)), ("pdop", n(g.pdop)),
                ("geoidalSeparation", n(g.geoidalSeparation)),
            ]
        case .setAndDrift(let s): return [("sid", i(s.sid)), ("set", n(s.set)), ("drift", n(s.drift))]
        case .systemTime(let t):
            return [("sid", i(t.sid)), ("source", i(t.source)), ("date", i(t.date)), ("time", n(t.time))]
        case .crossTrack(let x):
            return [
                ("sid", i(x.sid)), ("xteMode", i(x.mode)), ("navigationTerminated", b(x.terminated)), ("xte", n(x.xte)),
            ]
        case .navigation(let d):
            return [
                ("sid", i(d.sid)), ("distanceToWaypoint", n(d.distanceToWaypoint)),
                ("courseBearingReference", i(d.bearingReference)), ("perpendicularCrossed", b(d.perpendicularCrossed)),
                ("arrivalCircleEntered", b(d.arrivalCircleEntered)), ("calculationType", i(d.calculationType)),
                ("etaTime", n(d.etaTime)), ("etaDate", i(d.etaDate)),
                ("bearingOriginToDestinationWaypoint", n(d.bearingOriginToDestination)),
                ("bearingPositionToDestinationWaypoint", n(d.bearingToDestination)),
                ("originWaypointNumber", i(d.originWaypoint)), ("destinationWaypointNumber", i(d.destinationWaypoint)),
                ("destinationLatitude", n(d.destinationLatitude)), ("destinationLongitude", n(d.destinationLongitude)),
                ("waypointClosingVelocity", n(d.closingVelocity)),
            ]
        case .route(let r):
            var out: [(id: String, value: N2KFieldValue)] = [
                ("startRps", i(r.start)), ("nitems", i(r.waypoints.count)), ("databaseId", i(r.databaseId)),
                ("routeId", i(r.routeId)), ("navigationDirectionInRoute", i(r.direction)), ("routeName", .text(r.name)),
            ]
            for (index, waypoint) in r.waypoints.enumerated() {
                out.append(("list.\(index).wpId", i(waypoint.id)))
                out.append(("list.\(index).wpName", .text(waypoint.name)))
                out.append(("list.\(index).wpLatitude", n(waypoint.latitude)))
                out.append(("list.\(index).wpLongitude", n(waypoint.longitude)))
            }
            return out
        case .wind(let w):
            return [
                ("sid", i(w.sid)), ("windSpeed", n(w.speed)), ("windAngle", n(w.angle)),
                ("reference", i(w.reference?.rawValue)),
            ]
        case .environment(let e):
            switch e.kind {
            case .obsolete:
                return [
                    ("sid", i(e.sid)), ("waterTemperature", n(e.waterTemperature)),
                    ("outsideAmbientAirTemperature", n(e.airTemperature)), ("atmosphericPressure", n(e.pressure)),
                ]
            case .parameters:
                return [
                    ("sid", i(e.sid)), ("temperatureSource", i(e.source)), ("temperature", n(e.temperature)),
                    ("humidity", n(e.humidity)), ("atmosphericPressure", n(e.pressure)),
                ]
            case .temperature:
                return [
                    ("sid", i(e.sid)), ("instance", i(e.instance)), ("source", i(e.source)),
                    ("actualTemperature", n(e.temperature)),
                ]
            case .humidity:
                return [
                    ("sid", i(e.sid)), ("instance", i(e.instance)), ("source", i(e.source)),
                    ("actualHumidity", n(e.humidity)),
                ]
            case .pressure:
                return [
                    ("sid", i(e.sid)), ("instance", i(e.instance)), ("source", i(e.source)),
                    ("pressure", n(e.pressure)),
                ]
            }
        case .aisPosition(let a):
            var out: [(id: String, value: N2KFieldValue)] = [
                ("messageId", i(a.messageId)), ("repeatIndicator", i(a.repeatIndicator)),
                ("userId", i(a.mmsi.map { Int($0) })), ("longitude", n(a.longitude)), ("latitude", n(a.latitude)),
                ("positionAccuracy", b(a.accurate)), ("raim", b(a.raim)), ("timeStamp", i(a.timeStamp)),
            ]
            switch a.pgn {
            case 129038, 129039:
                out += [("cog", n(a.course)), ("sog", n(a.speed)), ("heading", n(a.heading))]
                if a.pgn == 129038 { out += [("rateOfTurn", n(a.rateOfTurn)), ("navStatus", i(a.navigationStatus))] }
            case 129040:
                out += [
                    ("cog", n(a.course)), ("sog", n(a.speed)), ("typeOfShip", i(a.shipType)),
                    ("trueHeading", n(a.heading)), ("length", n(a.length)), ("beam", n(a.beam)),
                    ("positionReferenceFromStarboard", n(a.fromStarboard)),
                    ("positionReferenceFromBow", n(a.fromBow)), ("name", .text(a.name)),
                ]
            default:
                out += [
                    ("lengthDiameter", n(a.length)), ("beamDiameter", n(a.beam)),
                    ("positionReferenceFromStarboardEdge", n(a.fromStarboard)),
                    ("positionReferenceFromTrueNorthFacingEdge", n(a.fromBow)), ("atonType", i(a.atonType)),
                    ("offPositionIndicator", b(a.offPosition)), ("virtualAtonFlag", b(a.virtual)),
                    ("atonName", .text(a.name)),
                ]
            }
            return out
        case .aisStatic(let a):
            var out: [(id: String, value: N2KFieldValue)] = [
                ("messageId", i(a.messageId)), ("repeatIndicator", i(a.repeatIndicator)),
                ("userId", i(a.mmsi.map { Int($0) })),
            ]
            switch a.pgn {
            case 129794:
                out += [
                    ("imoNumber", i(a.imo)), ("callsign", .text(a.callsign)), ("name", .text(a.name)),
                    ("typeOfShip", i(a.shipType)), ("length", n(a.length)), ("beam", n(a.beam)),
                    ("positionReferenceFromStarboard", n(a.fromStarboard)), ("positionReferenceFromBow", n(a.fromBow)),
                    ("etaDate", i(a.etaDate)), ("etaTime", n(a.etaTime)), ("draft", n(a.draft)),
                    ("destination", .text(a.destination)),
                ]
            case 129809: out += [("name", .text(a.name))]
            default:
                out += [
                    ("typeOfShip", i(a.shipType)), ("callsign", .text(a.callsign)), ("length", n(a.length)),
                    ("beam", n(a.beam)), ("positionReferenceFromStarboard", n(a.fromStarboard)),
                    ("positionReferenceFromBow", n(a.fromBow)),
                ]
            }
            return out
        case .addressClaim(let name):
            return [
                ("uniqueNumber", i(name.uniqueNumber)), ("manufacturerCode", i(name.manufacturer)),
                ("deviceFunction", i(name.function)), ("deviceClass", i(name.deviceClass)),
                ("systemInstance", i(name.systemInstance)), ("industryGroup", i(name.industryGroup)),
                ("arbitraryAddressCapable", b(name.arbitraryAddressCapable)),
            ]
        case .request(let pgn): return [("pgn", i(Int(pgn)))]
        case .acknowledgement(let control, let pgn): return [("control", i(control)), ("pgn", i(Int(pgn)))]
        case .heartbeat(let h): return [("dataTransmitOffset", n(h.interval)), ("sequenceCounter", i(h.counter))]
        case .product(let p):
            return [
                ("productCode", i(p.productCode)), ("modelId", .text(p.model)),
                ("softwareVersionCode", .text(p.software)),
                ("modelVersion", .text(p.modelVersion)), ("modelSerialCode", .text(p.serial)),
                ("certificationLevel", i(p.certificationLevel)), ("loadEquivalency", i(p.load)),
            ]
        case .configuration(let c):
            return [
                ("installationDescription1", .text(c.installation1)),
                ("installationDescription2", .text(c.installation2)),
                ("manufacturerInformation", .text(c.manufacturer)),
            ]
        case .pgnList(let list):
            var out: [(id: String, value: N2KFieldValue)] = [("functionCode", i(list.function))]
            for (index, pgn) in list.pgns.enumerated() { out.append(("list.\(index).pgn", i(Int(pgn)))) }
            return out
        case .headingControl(let h):
            return [
                ("rudderLimitExceeded", i(h.rudderLimitExceeded)),
                ("offHeadingLimitExceeded", i(h.offHeadingLimitExceeded)),
                ("offTrackLimitExceeded", i(h.offTrackLimitExceeded)), ("override", i(h.override)),
                ("steeringMode", i(h.steeringMode)), ("turnMode", i(h.turnMode)),
                ("headingReference", i(h.headingReference)),
                ("commandedRudderDirection", i(h.commandedRudderDirection)),
                ("commandedRudderAngle", n(h.commandedRudderAngle)), ("headingToSteerCourse", n(h.headingToSteer)),
                ("track", n(h.track)), ("rudderLimit", n(h.rudderLimit)), ("offHeadingLimit", n(h.offHeadingLimit)),
                ("radiusOfTurnOrder", n(h.radiusOfTurnOrder)), ("rateOfTurnOrder", n(h.rateOfTurnOrder)),
                ("offTrackLimit", n(h.offTrackLimit)), ("vesselHeading", n(h.vesselHeading)),
            ]
        case .seatalkPilotMode(let m):
            return [("pilotMode", i(m.pilotMode)), ("subMode", i(m.subMode)), ("pilotModeData", i(m.data))]
        case .seatalkLockedHeading(let l):
            return [
                ("sid", i(l.sid)), ("targetHeadingTrue", n(l.headingTrue)),
                ("targetHeadingMagnetic", n(l.headingMagnetic)),
            ]
        case .seatalkWindDatum(let w):
            return [("windDatum", n(w.windDatum)), ("rollingAverageWindAngle", n(w.rollingAverage))]
        case .other:
            return []
        }
    }
}
