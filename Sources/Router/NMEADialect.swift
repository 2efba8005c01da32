import NMEA

/// Which form of the sentences that end in an FAA mode field an output gets (`nmea_version` per output).
///
/// NMEA 2.3 added the FAA mode as the last field of APB, BWC, BWR, GLL, RMB, RMC, VTG, WCV and XTE. Most readers take
/// either form, but not all: OpenCPN's NMEA 0183 library reads the checksum of APB at a fixed place, after field 14,
/// so it refuses every 15-field APB. Computed sentences are written in the output's dialect; pass-through goes out as
/// it came.
public enum NMEADialect: String, CaseIterable, Sendable {
    /// NMEA 2.3 with the FAA mode everywhere but APB, which keeps its 14-field form: what OpenCPN, pypilot,
    /// pynmeagps and gpsd all accept. The default.
    case compatible
    /// NMEA 2.3 (and 4.x) in full: APB with its 15th field too.
    case nmea23 = "2.3"
    /// Before NMEA 2.3: no FAA mode field at all, for old displays and pilots that count fields.
    case nmea21 = "2.1"

    /// The data fields each formatter has with its FAA mode field, and so how many to keep without it.
    static let fieldsWithMode: [Formatter: Int] = [
        "APB": 15, "BWC": 13, "BWR": 13, "GLL": 7, "RMB": 14, "RMC": 12, "VTG": 9, "WCV": 4, "XTE": 6,
    ]

    /// `sentence` in this dialect: the FAA mode field dropped where the dialect has none.
    public func adapt(_ sentence: Sentence) -> Sentence {
        guard self != .nmea23, let formatter = sentence.address.formatter,
            let withMode = Self.fieldsWithMode[formatter]
        else { return sentence }
        if self == .compatible && formatter != "APB" { return sentence }
        // RMC in NMEA 4.1 adds a navigational status after the mode: both go.
        let extra = sentence.fieldCount - withMode
        guard extra >= 0 else { return sentence }
        return sentence.droppingLastFields(1 + extra)
    }
}

extension Sentence {
    /// The same sentence without its last `count` fields, checksum recomputed (the tag block is kept).
    public func droppingLastFields(_ count: Int) -> Sentence {
        var bytes = self.bytes
        guard let star = bytes.lastIndex(of: UInt8(ascii: "*")) else { return self }
        bytes.removeSubrange(star...)
        for _ in 0..<count {
            guard let comma = bytes.lastIndex(of: UInt8(ascii: ",")) else { return self }
            bytes.removeSubrange(comma...)
        }
        guard var shorter = try? Sentence(parsing: bytes, requiresChecksum: false) else { return self }
        shorter.tagBlock = tagBlock
        return shorter
    }
}
