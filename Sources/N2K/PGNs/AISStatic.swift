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
            mmsi = MMSI.read(reader.integer(F.userId))
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
            mmsi = MMSI.read(reader.integer(F.userId))
            name = reader.fixedString(at: 5, bytes: 20)
            part = 0
        default:
            typealias F = CanboatPGNs.AisClassBStaticDataMsg24PartB
            messageId = reader.integer(F.messageId)
            repeatIndicator = reader.integer(F.repeatIndicator)
            mmsi = MMSI.read(reader.integer(F.userId))
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

extension AISStatic {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let a = self
        var out: [(id: String, value: N2KFieldValue)] = [
            ("messageId", .integer(a.messageId)), ("repeatIndicator", .integer(a.repeatIndicator)),
            ("userId", .integer(a.mmsi.map { Int($0) })),
        ]
        switch a.pgn {
        case 129794:
            out += [
                ("imoNumber", .integer(a.imo)), ("callsign", .text(a.callsign)), ("name", .text(a.name)),
                ("typeOfShip", .integer(a.shipType)), ("length", .number(a.length)), ("beam", .number(a.beam)),
                ("positionReferenceFromStarboard", .number(a.fromStarboard)),
                ("positionReferenceFromBow", .number(a.fromBow)),
                ("etaDate", .integer(a.etaDate)), ("etaTime", .number(a.etaTime)), ("draft", .number(a.draft)),
                ("destination", .text(a.destination)),
            ]
        case 129809: out += [("name", .text(a.name))]
        default:
            out += [
                ("typeOfShip", .integer(a.shipType)), ("callsign", .text(a.callsign)), ("length", .number(a.length)),
                ("beam", .number(a.beam)), ("positionReferenceFromStarboard", .number(a.fromStarboard)),
                ("positionReferenceFromBow", .number(a.fromBow)),
            ]
        }
        return out
    }
}
