/// Network management: the address claim's NAME (60928), requests (59904) and acknowledgements (59392), the
/// heartbeat (126993), product (126996) and configuration (126998) information, the PGN list (126464).

/// A device's NAME: 64 bits that say who it is (its maker, its unique number, its function and instance) and that
/// decide who keeps an address when two claim it: the lower NAME wins.
public struct DeviceName: Hashable, Comparable, Sendable {
    public var raw: UInt64

    public init(raw: UInt64) { self.raw = raw }

    public init(
        uniqueNumber: UInt32, manufacturer: Int, deviceInstance: Int = 0, function: Int, deviceClass: Int,
        systemInstance: Int = 0, industryGroup: Int = 4, arbitraryAddressCapable: Bool = true
    ) {
        var w = N2KWriter(count: 8)
        typealias F = CanboatPGNs.IsoAddressClaim
        F.uniqueNumber.writeRaw(Int64(uniqueNumber & 0x1F_FFFF), into: &w)
        F.manufacturerCode.writeRaw(Int64(manufacturer), into: &w)
        F.deviceInstanceLower.writeRaw(Int64(deviceInstance & 7), into: &w)
        F.deviceInstanceUpper.writeRaw(Int64(deviceInstance >> 3), into: &w)
        F.deviceFunction.writeRaw(Int64(function), into: &w)
        w.put(0, at: 48, length: 1)
        F.deviceClass.writeRaw(Int64(deviceClass), into: &w)
        F.systemInstance.writeRaw(Int64(systemInstance), into: &w)
        F.industryGroup.writeRaw(Int64(industryGroup), into: &w)
        F.arbitraryAddressCapable.writeRaw(arbitraryAddressCapable ? 1 : 0, into: &w)
        raw = N2KPayload(w.bytes).bits(0, 64) ?? 0
    }

    public init?(_ payload: N2KPayload) {
        guard payload.count >= 8, let raw = payload.bits(0, 64) else { return nil }
        self.raw = raw
    }

    public var payload: N2KPayload { N2KPayload(CANFrame(id: 0, data: raw, count: 8)) }

    private func field(_ field: N2KField) -> Int { Int(payload.bits(field.offset, field.length) ?? 0) }
    public var uniqueNumber: Int { field(CanboatPGNs.IsoAddressClaim.uniqueNumber) }
    public var manufacturer: Int { field(CanboatPGNs.IsoAddressClaim.manufacturerCode) }
    public var deviceInstance: Int {
        field(CanboatPGNs.IsoAddressClaim.deviceInstanceLower) | field(CanboatPGNs.IsoAddressClaim.deviceInstanceUpper)
            << 3
    }
    public var function: Int { field(CanboatPGNs.IsoAddressClaim.deviceFunction) }
    public var deviceClass: Int { field(CanboatPGNs.IsoAddressClaim.deviceClass) }
    public var systemInstance: Int { field(CanboatPGNs.IsoAddressClaim.systemInstance) }
    public var industryGroup: Int { field(CanboatPGNs.IsoAddressClaim.industryGroup) }
    public var arbitraryAddressCapable: Bool { field(CanboatPGNs.IsoAddressClaim.arbitraryAddressCapable) == 1 }

    /// Sixteen hex digits, most significant first: how a device is named in the log, Signal K's `$source` and
    /// `telltale n2k`, since its address may change.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for shift in stride(from: 60, through: 0, by: -4) { out.append(digits[Int((raw >> UInt64(shift)) & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }

    public static func < (a: DeviceName, b: DeviceName) -> Bool { a.raw < b.raw }
}

extension DeviceName {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let name = self
        return [
            ("uniqueNumber", .integer(name.uniqueNumber)), ("manufacturerCode", .integer(name.manufacturer)),
            ("deviceFunction", .integer(name.function)), ("deviceClass", .integer(name.deviceClass)),
            ("systemInstance", .integer(name.systemInstance)), ("industryGroup", .integer(name.industryGroup)),
            ("arbitraryAddressCapable", .flag(name.arbitraryAddressCapable)),
        ]
    }
}

public enum ISORequest {
    public static let pgn: UInt32 = 59904

    /// The PGN a request asks for; nil when it is not three bytes.
    public static func requested(_ payload: N2KPayload) -> UInt32? {
        guard payload.count >= 3 else { return nil }
        return UInt32(payload[0]) | UInt32(payload[1]) << 8 | UInt32(payload[2]) << 16
    }

    public static func payload(asking pgn: UInt32) -> N2KPayload {
        N2KPayload([
            UInt8(truncatingIfNeeded: pgn), UInt8(truncatingIfNeeded: pgn >> 8), UInt8(truncatingIfNeeded: pgn >> 16),
        ])
    }
}

public enum ISOAcknowledgement {
    public static let pgn: UInt32 = 59392

    /// Control 1: NAK, "not supported", for `pgn`.
    public static func negative(_ pgn: UInt32) -> N2KPayload {
        N2KPayload([1, 0xFF, 0xFF, 0xFF, 0xFF] + IsoTransport.pgnBytes(pgn))
    }

    /// The control code (0 ACK, 1 NAK, 2 access denied, 3 address busy) and the PGN it is about.
    public static func read(_ payload: N2KPayload) -> (control: Int, pgn: UInt32)? {
        guard payload.count >= 8 else { return nil }
        return (Int(payload[0]), UInt32(payload[5]) | UInt32(payload[6]) << 8 | UInt32(payload[7]) << 16)
    }
}

public struct Heartbeat: Hashable, Sendable {
    public static let pgn: UInt32 = 126993
    /// Seconds between heartbeats, and the heartbeat's own counter (0–252, then 0 again).
    public var interval: Double?
    public var counter: Int?

    public init(interval: Double, counter: Int) {
        self.interval = interval
        self.counter = counter
    }

    public init(_ reader: inout N2KReader) {
        interval = reader.value(CanboatPGNs.Heartbeat.dataTransmitOffset)
        counter = reader.integer(CanboatPGNs.Heartbeat.sequenceCounter)
    }

    public var payload: N2KPayload {
        var w = N2KWriter(count: 8)
        CanboatPGNs.Heartbeat.dataTransmitOffset.write(interval, into: &w)
        CanboatPGNs.Heartbeat.sequenceCounter.write(counter.map(Double.init), into: &w)
        // Both controllers error-active, equipment operational.
        CanboatPGNs.Heartbeat.controller1State.writeRaw(0, into: &w)
        CanboatPGNs.Heartbeat.controller2State.writeRaw(0, into: &w)
        CanboatPGNs.Heartbeat.equipmentStatus.writeRaw(0, into: &w)
        return N2KPayload(w.bytes)
    }
}

extension Heartbeat {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let h = self
        return [("dataTransmitOffset", .number(h.interval)), ("sequenceCounter", .integer(h.counter))]
    }
}

public struct ProductInformation: Hashable, Sendable {
    public static let pgn: UInt32 = 126996
    /// The NMEA 2000 database version (2.100 as 2.1), the product code, and four fixed texts of 32 bytes.
    public var version: Double?
    public var productCode: Int?
    public var model: String
    public var software: String
    public var modelVersion: String
    public var serial: String
    public var certificationLevel: Int?
    /// Load equivalency: units of 50 mA.
    public var load: Int?

    public init(
        version: Double = 2.1, productCode: Int, model: String, software: String, modelVersion: String,
        serial: String, certificationLevel: Int = 0, load: Int = 1
    ) {
        self.version = version
        self.productCode = productCode
        self.model = model
        self.software = software
        self.modelVersion = modelVersion
        self.serial = serial
        self.certificationLevel = certificationLevel
        self.load = load
    }

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.ProductInformation
        version = reader.value(F.nmea2000Version)
        productCode = reader.integer(F.productCode)
        model = reader.fixedString(at: 4, bytes: 32) ?? ""
        software = reader.fixedString(at: 36, bytes: 32) ?? ""
        modelVersion = reader.fixedString(at: 68, bytes: 32) ?? ""
        serial = reader.fixedString(at: 100, bytes: 32) ?? ""
        certificationLevel = reader.integer(F.certificationLevel)
        load = reader.integer(F.loadEquivalency)
    }

    public var payload: N2KPayload {
        typealias F = CanboatPGNs.ProductInformation
        var w = N2KWriter(count: 134)
        F.nmea2000Version.write(version, into: &w)
        F.productCode.write(productCode.map(Double.init), into: &w)
        // Padded with NULs, as Garmin's devices pad them (B&G's with spaces): 0xFF padding, which the standard also
        // allows, is read by some decoders (PyPI's nmea2000) as bytes rather than text.
        w.putFixed(model, at: 4, bytes: 32, pad: 0)
        w.putFixed(software, at: 36, bytes: 32, pad: 0)
        w.putFixed(modelVersion, at: 68, bytes: 32, pad: 0)
        w.putFixed(serial, at: 100, bytes: 32, pad: 0)
        F.certificationLevel.writeRaw(Int64(certificationLevel ?? 0), into: &w)
        F.loadEquivalency.write(load.map(Double.init), into: &w)
        return N2KPayload(w.bytes)
    }
}

extension ProductInformation {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let p = self
        return [
            ("productCode", .integer(p.productCode)), ("modelId", .text(p.model)),
            ("softwareVersionCode", .text(p.software)),
            ("modelVersion", .text(p.modelVersion)), ("modelSerialCode", .text(p.serial)),
            ("certificationLevel", .integer(p.certificationLevel)), ("loadEquivalency", .integer(p.load)),
        ]
    }
}

public struct ConfigurationInformation: Hashable, Sendable {
    public static let pgn: UInt32 = 126998
    public var installation1: String
    public var installation2: String
    public var manufacturer: String

    public init(installation1: String, installation2: String, manufacturer: String) {
        self.installation1 = installation1
        self.installation2 = installation2
        self.manufacturer = manufacturer
    }

    public init?(_ reader: inout N2KReader) {
        guard let first = reader.lauString(at: 0), let second = reader.lauString(at: first.next),
            let third = reader.lauString(at: second.next)
        else { return nil }
        installation1 = first.text
        installation2 = second.text
        manufacturer = third.text
    }

    public var payload: N2KPayload {
        var w = N2KWriter(count: 0)
        let second = w.putLAU(installation1, at: 0)
        let third = w.putLAU(installation2, at: second)
        w.putLAU(manufacturer, at: third)
        return N2KPayload(w.bytes.prefix(223))
    }
}

extension ConfigurationInformation {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let c = self
        return [
            ("installationDescription1", .text(c.installation1)),
            ("installationDescription2", .text(c.installation2)),
            ("manufacturerInformation", .text(c.manufacturer)),
        ]
    }
}

public struct PGNList: Hashable, Sendable {
    public static let pgn: UInt32 = 126464
    /// 0: what the device sends; 1: what it receives.
    public var function: Int
    public var pgns: [UInt32]

    public init(function: Int, pgns: [UInt32]) {
        self.function = function
        self.pgns = pgns
    }

    public init?(_ payload: N2KPayload) {
        guard payload.count >= 1 else { return nil }
        function = Int(payload[0])
        pgns = []
        var offset = 1
        while offset + 3 <= payload.count {
            let pgn = UInt32(payload[offset]) | UInt32(payload[offset + 1]) << 8 | UInt32(payload[offset + 2]) << 16
            if pgn != 0xFF_FFFF { pgns.append(pgn) }
            offset += 3
        }
    }

    public var payload: N2KPayload {
        var bytes: [UInt8] = [UInt8(function)]
        for pgn in pgns.prefix(74) { bytes += IsoTransport.pgnBytes(pgn) }
        return N2KPayload(bytes)
    }
}

extension PGNList {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let list = self
        var out: [(id: String, value: N2KFieldValue)] = [("functionCode", .integer(list.function))]
        for (index, pgn) in list.pgns.enumerated() { out.append(("list.\(index).pgn", .integer(Int(pgn)))) }
        return out
    }
}
