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
        readHeader(&reader)
        switch pgn {
        case 129038:
            typealias F = CanboatPGNs.AisClassAPositionReport
            readMotion(&reader, course: F.cog, speed: F.sog, heading: F.heading)
            rateOfTurn = reader.value(F.rateOfTurn)
            navigationStatus = reader.integer(F.navStatus)
        case 129039:
            typealias F = CanboatPGNs.AisClassBPositionReport
            readMotion(&reader, course: F.cog, speed: F.sog, heading: F.heading)
        case 129040:
            typealias F = CanboatPGNs.AisClassBExtendedPositionReport
            readMotion(&reader, course: F.cog, speed: F.sog, heading: F.trueHeading)
            shipType = reader.integer(F.typeOfShip)
            length = reader.value(F.length)
            beam = reader.value(F.beam)
            fromStarboard = reader.value(F.positionReferenceFromStarboard)
            fromBow = reader.value(F.positionReferenceFromBow)
            name = reader.fixedString(at: 32, bytes: 20)
        default:
            typealias F = CanboatPGNs.AisAidsToNavigationAtonReport
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

    /// The header the four position PGNs share, bit for bit (canboat lays out 129038, 129039, 129040 and 129041
    /// alike up to the time stamp): the message id, the repeat indicator, the MMSI, the position, its accuracy, RAIM,
    /// the UTC second. Read and written with class A's fields, once for all four.
    typealias Header = CanboatPGNs.AisClassAPositionReport

    private mutating func readHeader(_ reader: inout N2KReader) {
        messageId = reader.integer(Header.messageId)
        repeatIndicator = reader.integer(Header.repeatIndicator)
        mmsi = MMSI.read(reader.integer(Header.userId))
        longitude = reader.value(Header.longitude)
        latitude = reader.value(Header.latitude)
        accurate = reader.integer(Header.positionAccuracy).map { $0 == 1 }
        raim = reader.integer(Header.raim).map { $0 == 1 }
        timeStamp = reader.integer(Header.timeStamp)
    }

    /// COG and SOG (at the same place in the three vessels' PGNs) and the heading, where the PGN has it.
    private mutating func readMotion(
        _ reader: inout N2KReader, course courseField: N2KField, speed speedField: N2KField,
        heading headingField: N2KField
    ) {
        course = reader.value(courseField)
        speed = reader.value(speedField)
        heading = reader.value(headingField)
    }
}

/// The AIS PGNs written: what an NMEA 2000 plotter reads from an AIS receiver on the bus (an 0183 receiver's
/// `!AIVDM`, converted).
extension AISPosition {
    public init(pgn: UInt32, mmsi: UInt32) {
        self.pgn = pgn
        self.mmsi = mmsi
    }

    public var payload: N2KPayload {
        switch pgn {
        case 129038:
            typealias F = CanboatPGNs.AisClassAPositionReport
            var w = N2KWriter(count: 28)
            writeHeader(&w)
            F.cog.write(course, into: &w)
            F.sog.write(speed, into: &w)
            F.communicationState.writeRaw(0, into: &w)
            F.aisTransceiverInformation.writeRaw(0, into: &w)
            F.heading.write(heading, into: &w)
            F.rateOfTurn.write(rateOfTurn, into: &w)
            F.navStatus.writeRaw(Int64(navigationStatus ?? 15), into: &w)
            F.specialManeuverIndicator.writeRaw(0, into: &w)
            w.put(0x3F, at: 206, length: 2)
            w.put(0xFF, at: 208, length: 8)
            F.sequenceId.writeRaw(0xFF, into: &w)
            return N2KPayload(w.bytes)
        case 129039:
            typealias F = CanboatPGNs.AisClassBPositionReport
            var w = N2KWriter(count: 27)
            writeHeader(&w)
            F.cog.write(course, into: &w)
            F.sog.write(speed, into: &w)
            F.communicationState.writeRaw(0, into: &w)
            F.aisTransceiverInformation.writeRaw(0, into: &w)
            F.heading.write(heading, into: &w)
            w.put(0xFF, at: 184, length: 8)
            w.put(0x3, at: 192, length: 2)
            F.unitType.writeRaw(1, into: &w)
            for field in [F.integratedDisplay, F.dsc, F.band, F.canHandleMsg22, F.aisMode, F.aisCommunicationState] {
                field.writeRaw(0, into: &w)
            }
            w.put(0x7F, at: 201, length: 7)
            F.sequenceId.writeRaw(0xFF, into: &w)
            return N2KPayload(w.bytes)
        default:
            typealias F = CanboatPGNs.AisAidsToNavigationAtonReport
            var w = N2KWriter(count: 26)
            writeHeader(&w)
            F.lengthDiameter.write(length, into: &w)
            F.beamDiameter.write(beam, into: &w)
            F.positionReferenceFromStarboardEdge.write(fromStarboard, into: &w)
            F.positionReferenceFromTrueNorthFacingEdge.write(fromBow, into: &w)
            F.atonType.writeRaw(Int64(atonType ?? 0), into: &w)
            F.offPositionIndicator.writeRaw(offPosition == true ? 1 : 0, into: &w)
            F.virtualAtonFlag.writeRaw(virtual == true ? 1 : 0, into: &w)
            F.assignedModeFlag.writeRaw(0, into: &w)
            w.put(1, at: 184, length: 1)
            F.positionFixingDeviceType.writeRaw(1, into: &w)
            w.put(0x7, at: 189, length: 3)
            F.atonStatus.writeRaw(0, into: &w)
            F.aisTransceiverInformation.writeRaw(0, into: &w)
            w.put(0x7, at: 205, length: 3)
            w.putLAU(name ?? "", at: 26)
            return N2KPayload(w.bytes)
        }
    }

    /// The shared header (``Header``), written once for every position PGN.
    private func writeHeader(_ w: inout N2KWriter) {
        Header.messageId.writeRaw(Int64(messageId ?? 1), into: &w)
        Header.repeatIndicator.writeRaw(Int64(repeatIndicator ?? 0), into: &w)
        Header.userId.writeRaw(Int64(mmsi ?? 0), into: &w)
        Header.longitude.write(longitude, into: &w)
        Header.latitude.write(latitude, into: &w)
        Header.positionAccuracy.writeRaw(accurate == true ? 1 : 0, into: &w)
        Header.raim.writeRaw(raim == true ? 1 : 0, into: &w)
        Header.timeStamp.writeRaw(Int64(timeStamp ?? 60), into: &w)
    }
}

extension AISPosition {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let a = self
        var out: [(id: String, value: N2KFieldValue)] = [
            ("messageId", .integer(a.messageId)), ("repeatIndicator", .integer(a.repeatIndicator)),
            ("userId", .integer(a.mmsi.map { Int($0) })), ("longitude", .number(a.longitude)),
            ("latitude", .number(a.latitude)),
            ("positionAccuracy", .flag(a.accurate)), ("raim", .flag(a.raim)), ("timeStamp", .integer(a.timeStamp)),
        ]
        switch a.pgn {
        case 129038, 129039:
            out += [("cog", .number(a.course)), ("sog", .number(a.speed)), ("heading", .number(a.heading))]
            if a.pgn == 129038 {
                out += [("rateOfTurn", .number(a.rateOfTurn)), ("navStatus", .integer(a.navigationStatus))]
            }
        case 129040:
            out += [
                ("cog", .number(a.course)), ("sog", .number(a.speed)), ("typeOfShip", .integer(a.shipType)),
                ("trueHeading", .number(a.heading)), ("length", .number(a.length)), ("beam", .number(a.beam)),
                ("positionReferenceFromStarboard", .number(a.fromStarboard)),
                ("positionReferenceFromBow", .number(a.fromBow)), ("name", .text(a.name)),
            ]
        default:
            out += [
                ("lengthDiameter", .number(a.length)), ("beamDiameter", .number(a.beam)),
                ("positionReferenceFromStarboardEdge", .number(a.fromStarboard)),
                ("positionReferenceFromTrueNorthFacingEdge", .number(a.fromBow)), ("atonType", .integer(a.atonType)),
                ("offPositionIndicator", .flag(a.offPosition)), ("virtualAtonFlag", .flag(a.virtual)),
                ("atonName", .text(a.name)),
            ]
        }
        return out
    }
}
