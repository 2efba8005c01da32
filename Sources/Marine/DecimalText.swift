/// Decimals as files written by hand or by other programs carry them: GPX's lat and lon (xsd:decimal), a polar's
/// cells.
public enum DecimalText {
    /// The number a decimal says (a sign, digits, a point; spaces around), nil for anything else: never the
    /// hexadecimal, `nan`, `inf` or exponent a float parser also takes ("0x10" in a GPX file was read as 16°, "nan"
    /// in a polar as a boat speed).
    public static func value<Text: StringProtocol>(_ text: Text) -> Double? {
        var bytes = Array(text.utf8)
        while bytes.first == 0x20 || bytes.first == 0x09 { bytes.removeFirst() }
        while bytes.last == 0x20 || bytes.last == 0x09 { bytes.removeLast() }
        var digits = 0
        var points = 0
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case 0x30...0x39: digits += 1
            case 0x2E: points += 1
            case 0x2B where index == 0, 0x2D where index == 0: continue
            default: return nil
            }
        }
        guard digits > 0, points <= 1 else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }
}
