/// A Maritime Mobile Service Identity as NMEA 2000 carries it (a 32-bit field): nine digits at most. A bigger number
/// (0x90000000 from a broken node) is no vessel: it is dropped as it is read, so it never reaches AIS, Signal K or the
/// 0183 side (where 30 bits would have made another vessel of it).
public enum MMSI {
    public static let largest = 999_999_999

    /// The MMSI a field's whole number is, nil when it cannot be one.
    public static func read(_ raw: Int?) -> UInt32? {
        guard let raw, (0...largest).contains(raw) else { return nil }
        return UInt32(raw)
    }
}
