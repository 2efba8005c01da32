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
            common(
                &w, F.messageId, F.repeatIndicator, F.userId, F.longitude, F.latitude, F.positionAccuracy, F.raim,
                F.timeStamp)
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
            common(
                &w, F.messageId, F.repeatIndicator, F.userId, F.longitude, F.latitude, F.positionAccuracy, F.raim,
                F.timeStamp)
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
            common(
                &w, F.messageId, F.repeatIndicator, F.userId, F.longitude, F.latitude, F.positionAccuracy, F.raim,
                F.timeStamp)
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

    private func common(
        _ w: inout N2KWriter, _ id: N2KField, _ repeatField: N2KField, _ user: N2KField, _ lon: N2KField,
        _ lat: N2KField, _ accuracy: N2KField, _ raimField: N2KField, _ stamp: N2KField
    ) {
        id.writeRaw(Int64(messageId ?? 1), into: &w)
        repeatField.writeRaw(Int64(repeatIndicator ?? 0), into: &w)
        user.writeRaw(Int64(mmsi ?? 0), into: &w)
        lon.write(longitude, into: &w)
        lat.write(latitude, into: &w)
        accuracy.writeRaw(accurate == true ? 1 : 0, into: &w)
        raimField.writeRaw(raim == true ? 1 : 0, into: &w)
        stamp.writeRaw(Int64(timeStamp ?? 60), into: &w)
    }
}

extension AISStatic {
    public init(pgn: UInt32, mmsi: UInt32) {
        self.pgn = pgn
        self.mmsi = mmsi
    }

    public var payload: N2KPayload {
        switch pgn {
        case 129794:
            typealias F = CanboatPGNs.AisClassAStaticAndVoyageRelatedData
            var w = N2KWriter(count: 76)
            F.messageId.writeRaw(Int64(messageId ?? 5), into: &w)
            F.repeatIndicator.writeRaw(Int64(repeatIndicator ?? 0), into: &w)
            F.userId.writeRaw(Int64(mmsi ?? 0), into: &w)
            F.imoNumber.write(imo.map(Double.init), into: &w)
            w.putFixed(callsign ?? "", at: 9, bytes: 7)
            w.putFixed(name ?? "", at: 16, bytes: 20)
            F.typeOfShip.writeRaw(Int64(shipType ?? 0), into: &w)
            F.length.write(length, into: &w)
            F.beam.write(beam, into: &w)
            F.positionReferenceFromStarboard.write(fromStarboard, into: &w)
            F.positionReferenceFromBow.write(fromBow, into: &w)
            F.etaDate.write(etaDate.map(Double.init), into: &w)
            F.etaTime.write(etaTime, into: &w)
            F.draft.write(draft, into: &w)
            w.putFixed(destination ?? "", at: 53, bytes: 20)
            F.aisVersionIndicator.writeRaw(0, into: &w)
            F.gnssType.writeRaw(1, into: &w)
            F.dte.writeRaw(0, into: &w)
            w.put(1, at: 591, length: 1)
            F.aisTransceiverInformation.writeRaw(0, into: &w)
            w.put(0x7, at: 597, length: 3)
            F.sequenceId.writeRaw(0xFF, into: &w)
            return N2KPayload(w.bytes)
        case 129809:
            typealias F = CanboatPGNs.AisClassBStaticDataMsg24PartA
            var w = N2KWriter(count: 27)
            F.messageId.writeRaw(Int64(messageId ?? 24), into: &w)
            F.repeatIndicator.writeRaw(Int64(repeatIndicator ?? 0), into: &w)
            F.userId.writeRaw(Int64(mmsi ?? 0), into: &w)
            w.putFixed(name ?? "", at: 5, bytes: 20)
            F.aisTransceiverInformation.writeRaw(0, into: &w)
            w.put(0x7, at: 205, length: 3)
            F.sequenceId.writeRaw(0xFF, into: &w)
            return N2KPayload(w.bytes)
        default:
            typealias F = CanboatPGNs.AisClassBStaticDataMsg24PartB
            var w = N2KWriter(count: 35)
            F.messageId.writeRaw(Int64(messageId ?? 24), into: &w)
            F.repeatIndicator.writeRaw(Int64(repeatIndicator ?? 0), into: &w)
            F.userId.writeRaw(Int64(mmsi ?? 0), into: &w)
            F.typeOfShip.writeRaw(Int64(shipType ?? 0), into: &w)
            w.putFixed("", at: 6, bytes: 7)
            w.putFixed(callsign ?? "", at: 13, bytes: 7)
            F.length.write(length, into: &w)
            F.beam.write(beam, into: &w)
            F.positionReferenceFromStarboard.write(fromStarboard, into: &w)
            F.positionReferenceFromBow.write(fromBow, into: &w)
            F.mothershipUserId.writeRaw(0, into: &w)
            w.put(0xF, at: 256, length: 4)
            F.gnssType.writeRaw(1, into: &w)
            F.aisTransceiverInformation.writeRaw(0, into: &w)
            w.put(0x7, at: 269, length: 3)
            F.sequenceId.writeRaw(0xFF, into: &w)
            return N2KPayload(w.bytes)
        }
    }
}
