/// Simrad's and B&G's own pilot PGNs (Simnet, manufacturer 1857).

/// B&G and Simrad pilots (Simnet, manufacturer 1857; a NAC or AC course computer): the pilot's own report in 65305,
/// `report` 2 its status (canboat's SIMNET_AP_STATUS: 2 manual, 16 automatic) and `report` 10 its mode (the
/// SIMNET_AP_MODE_BITFIELD: bit 3 standby, 4 heading, 6 nav, 8 no drift, 10 wind). canboat describes these under one
/// PGN, told apart by `report`: read here by their offsets (model at bit 16, report at 24, the value at 32).
public enum SimnetPilot {
    public static let manufacturer = 1857

    public struct Report: Hashable, Sendable {
        /// canboat's SIMNET_DEVICE_MODEL: 0 AC, 100 NAC.
        public var model: Int
        public var report: Int
        public var value: Int
    }

    /// A 65305 from a Simnet pilot, or nil (another manufacturer's, or too short).
    public static func report(_ message: N2KMessage) -> Report? {
        let payload = message.payload
        guard message.pgn == 65305, payload.count >= 6,
            (Int(payload[0]) | Int(payload[1]) << 8) & 0x7FF == manufacturer,
            let model = payload.bits(16, 8), let report = payload.bits(24, 8), let value = payload.bits(32, 16)
        else { return nil }
        return Report(model: Int(model), report: Int(report), value: Int(report == 10 ? value : value & 0xFF))
    }
}
