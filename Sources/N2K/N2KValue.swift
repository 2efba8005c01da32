/// A message read into what it says, for the PGNs a sailing boat uses (others come out as `.other`, counted by the
/// caller, passed over). Values not available, or out of range, are nil; `outOfRange` counts the latter.
public enum N2KValue: Hashable, Sendable {
    case heading(VesselHeading)
    case rateOfTurn(RateOfTurn)
    case attitude(Attitude)
    case variation(MagneticVariation)
    case rudder(Rudder)
    case speed(Speed)
    case depth(WaterDepth)
    case log(DistanceLog)
    case position(PositionRapid)
    case course(CourseOverGround)
    case gnss(GNSSPosition)
    case setAndDrift(SetAndDrift)
    case systemTime(SystemTime)
    case crossTrack(CrossTrackError)
    case navigation(NavigationData)
    case route(RouteInformation)
    case wind(WindData)
    case environment(Environment)
    case aisPosition(AISPosition)
    case aisStatic(AISStatic)
    case addressClaim(DeviceName)
    case request(UInt32)
    case acknowledgement(control: Int, pgn: UInt32)
    case heartbeat(Heartbeat)
    case product(ProductInformation)
    case configuration(ConfigurationInformation)
    case pgnList(PGNList)
    case headingControl(HeadingTrackControl)
    case seatalkPilotMode(SeatalkPilot.Mode)
    case seatalkLockedHeading(SeatalkPilot.LockedHeading)
    case seatalkWindDatum(SeatalkPilot.WindDatum)
    case other

    /// What `message` says, and how many of its fields the sender marked out of range.
    public static func decode(_ message: N2KMessage) -> (value: N2KValue, outOfRange: Int) {
        var reader = N2KReader(message.payload)
        let value: N2KValue
        switch message.pgn {
        case 127250: value = .heading(VesselHeading(&reader))
        case 127251: value = .rateOfTurn(RateOfTurn(&reader))
        case 127257: value = .attitude(Attitude(&reader))
        case 127258: value = .variation(MagneticVariation(&reader))
        case 127245: value = .rudder(Rudder(&reader))
        case 128259: value = .speed(Speed(&reader))
        case 128267: value = .depth(WaterDepth(&reader))
        case 128275: value = .log(DistanceLog(&reader))
        case 129025: value = .position(PositionRapid(&reader))
        case 129026: value = .course(CourseOverGround(&reader))
        case 129029: value = .gnss(GNSSPosition(&reader))
        case 129291: value = .setAndDrift(SetAndDrift(&reader))
        case 126992: value = .systemTime(SystemTime(&reader))
        case 129283: value = .crossTrack(CrossTrackError(&reader))
        case 129284: value = .navigation(NavigationData(&reader))
        case 129285: value = RouteInformation(&reader).map { .route($0) } ?? .other
        case 130306: value = .wind(WindData(&reader))
        case 130310, 130311, 130312, 130313, 130314:
            value = .environment(Environment(pgn: message.pgn, &reader))
        case 129038, 129039, 129040, 129041: value = .aisPosition(AISPosition(pgn: message.pgn, &reader))
        case 129794, 129809, 129810: value = .aisStatic(AISStatic(pgn: message.pgn, &reader))
        case 60928: value = DeviceName(message.payload).map { .addressClaim($0) } ?? .other
        case ISORequest.pgn: value = ISORequest.requested(message.payload).map { .request($0) } ?? .other
        case ISOAcknowledgement.pgn:
            value =
                ISOAcknowledgement.read(message.payload).map { .acknowledgement(control: $0.control, pgn: $0.pgn) }
                ?? .other
        case Heartbeat.pgn: value = .heartbeat(Heartbeat(&reader))
        case ProductInformation.pgn: value = .product(ProductInformation(&reader))
        case ConfigurationInformation.pgn:
            value = ConfigurationInformation(&reader).map { .configuration($0) } ?? .other
        case PGNList.pgn: value = PGNList(message.payload).map { .pgnList($0) } ?? .other
        case 127237: value = .headingControl(HeadingTrackControl(&reader))
        case 65379 where SeatalkPilot.isRaymarine(message.payload):
            value = .seatalkPilotMode(SeatalkPilot.Mode(&reader))
        case 65360 where SeatalkPilot.isRaymarine(message.payload):
            value = .seatalkLockedHeading(SeatalkPilot.LockedHeading(&reader))
        case 65345 where SeatalkPilot.isRaymarine(message.payload):
            value = .seatalkWindDatum(SeatalkPilot.WindDatum(&reader))
        default: value = .other
        }
        return (value, reader.outOfRange)
    }
}
