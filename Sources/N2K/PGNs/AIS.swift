/// AIS over NMEA 2000: 129038 class A position, 129039 class B position, 129040 class B extended position, 129041
/// aid to navigation, 129794 class A static and voyage data, 129809 and 129810 class B static data (message 24 parts
/// A and B). Positions in degrees, COG and heading in radians, SOG in m/s, dimensions in metres.
public struct AISPosition: Hashable, Sendable {
    public var pgn: UInt32
    /// The AIS message it stands for (1, 2, 3 class A; 18, 19 class B; 21 an aid to navigation).
    public var messageId: Int?
    public var repeatIndicator: Int?
    public var mmsi: UInt32?
    public var latitude: Double?
    public var longitude: Double?
    public var accurate: Bool?
    public var raim: Bool?
    /// The UTC second (0–59), or 60–63 for none.
    public var timeStamp: Int?
    public var course: Double?
    public var speed: Double?
    public var heading: Double?
    /// Radians a second (class A).
    public var rateOfTurn: Double?
    public var navigationStatus: Int?
    /// Class B extended and aids to navigation: the static part.
    public var name: String?
    public var shipType: Int?
    public var length: Double?
    public var beam: Double?
    public var fromStarboard: Double?
    public var fromBow: Double?
    /// Aids to navigation.
    public var atonType: Int?
    public var offPosition: Bool?
    public var virtual: Bool?

    public init(pgn: UInt32, _ reader: inout N2KReader) {
        self.pgn = pgn
        switch pgn {
        case 129038:
            typealias F = CanboatPGNs.AisClassAPositionReport
            messageId = reader.integer(F.messageId)
            repeatIndicator = reader.integer(F.repeatIndicator)
            mmsi = reader.integer(F.userId).map { UInt32(truncatingIfNeeded: $0) }
            longitude = reader.value(F.longitude)
            latitude = reader.value(F.latitude)
            accurate = reader.integer(F.positionAccuracy).map { $0 == 1 }
            raim = reader.integer(F.raim).map { $0 == 1 }
            timeStamp = reader.integer(F.timeStamp)
            course = reader.value(F.cog)
            speed = reader.value(F.sog)
            heading = reader.value(F.heading)
            rateOfTurn = reader.value(F.rateOfTurn)
            navigationStatus = reader.integer(F.navStatus)
        case 129039:
            typealias F = CanboatPGNs.AisClassBPositionReport
            messageId = reader.integer(F.messageId)
            repeatIndicator = reader.integer(F.repeatIndicator)
            mmsi = reader.integer(F.userId).map { UInt32(truncatingIfNeeded: $0) }
            longitude = reader.value(F.longitude)
            latitude = reader.value(F.latitude)
            accurate = reader.integer(F.positionAccuracy).map { $0 == 1 }
            raim = reader.integer(F.raim).map { $0 == 1 }
            timeStamp = reader.integer(F.timeStamp)
            course = reader.value(F.cog)
            speed = reader.value(F.sog)
            heading = reader.value(F.heading)
        case 129040:
            typealias F = CanboatPGNs.AisClassBExtendedPositionReport
            messageId = reader.integer(F.messageId)
            repeatIndicator = reader.integer(F.repeatIndicator)
            mmsi = reader.integer(F.userId).map { UInt32(truncatingIfNeeded: $0) }
            longitude = reader.value(F.longitude)
            latitude = reader.value(F.latitude)
            accurate = reader.integer(F.positionAccuracy).map { $0 == 1 }
            raim = reader.integer(F.raim).map { $0 == 1 }
            timeStamp = reader.integer(F.timeStamp)
            course = reader.value(F.cog)
            speed = reader.value(F.sog)
            shipType = reader.integer(F.typeOfShip)
            heading = reader.value(F.trueHeading)
            length = reader.value(F.length)
            beam = reader.value(F.beam)
            fromStarboard = reader.value(F.positionReferenceFromStarboard)
            fromBow = reader.value(F.positionReferenceFromBow)
            name = reader.fixedString(at: 32, bytes: 20)
        default:
            typealias F = CanboatPGNs.AisAidsToNavigationAtonReport
            messageId = reader.integer(F.messageId)
            repeatIndicator = reader.integer(F.repeatIndicator)
            mmsi = reader.integer(F.userId).map { UInt32(truncatingIfNeeded: $0) }
            longitude = reader.value(F.longitude)
            latitude = reader.value(F.latitude)
            accurate = reader.integer(F.positionAccuracy).map { $0 == 1 }
            raim = reader.integer(F.raim).map { $0 == 1 }
            timeStamp = reader.integer(F.timeStamp)
            length = reader.value(F.lengthDiameter)
            beam = reader.value(F.beamDiameter)
            fromStarboard = reader.value(F.positionReferenceFromStarboardEdge)
            fromBow = reader.value(F.positionReferenceFromTrueNorthFacingEdge)
            atonType = reader.integer(F.atonType)
            offPosition = reader.integer(F.offPositionIndicator).map { $0 == 1 }
            virtual = reader.integer(F.virtualAtonFlag).map { $0 == 1 }
            name = reader.lauString(at: 26)?.text
        }
    }
}

public struct AISStatic: Hashable, Sendable {
    public var pgn: UInt32
    public var messageId: Int?
    public var repeatIndicator: Int?
    public var mmsi: UInt32?
    public var imo: Int?
    public var callsign: String?
    public var name: String?
    public var shipType: Int?
    public var length: Double?
    public var beam: Double?
    public var fromStarboard: Double?
    public var fromBow: Double?
    /// Days since 1970 and seconds since midnight of the ETA.
    public var etaDate: Int?
    public var etaTime: Double?
    public var draft: Double?
    public var destination: String?
    /// Message 24: part A (0) or B (1).
    public var part: Int?

    public init(pgn: UInt32, _ reader: inout N2KReader) {
        self.pgn = pgn
        switch pgn {
        case 129794:
            typealias F = CanboatPGNs.AisClassAStaticAndVoyageRelatedData
            messageId = reader.integer(F.messageId)
            repeatIndicator = reader.integer(F.repeatIndicator)
            mmsi = reader.integer(F.userId).map { UInt32(truncatingIfNeeded: $0) }
            imo = reader.integer(F.imoNumber)
            callsign = reader.fixedString(at: 9, bytes: 7)
            name = reader.fixedString(at: 16, bytes: 20)
            shipType = reader.integer(F.typeOfShip)
            length = reader.value(F.length)
            beam = reader.value(F.beam)
            fromStarboard = reader.value(F.positionReferenceFromStarboard)
            fromBow = reader.value(F.positionReferenceFromBow)
            etaDate = reader.integer(F.etaDate)
            etaTime = reader.value(F.etaTime)
            draft = reader.value(F.draft)
            destination = reader.fixedString(at: 53, bytes: 20)
        case 129809:
            typealias F = CanboatPGNs.AisClassBStaticDataMsg24PartA
            messageId = reader.integer(F.messageId)
            repeatIndicator = reader.integer(F.repeatIndicator)
            mmsi = reader.integer(F.userId).map { UInt32(truncatingIfNeeded: $0) }
            name = reader.fixedString(at: 5, bytes: 20)
            part = 0
        default:
            typealias F = CanboatPGNs.AisClassBStaticDataMsg24PartB
            messageId = reader.integer(F.messageId)
            repeatIndicator = reader.integer(F.repeatIndicator)
            mmsi = reader.integer(F.userId).map { UInt32(truncatingIfNeeded: $0) }
            shipType = reader.integer(F.typeOfShip)
            callsign = reader.fixedString(at: 13, bytes: 7)
            length = reader.value(F.length)
            beam = reader.value(F.beam)
            fromStarboard = reader.value(F.positionReferenceFromStarboard)
            fromBow = reader.value(F.positionReferenceFromBow)
            part = 1
        }
    }
}
