/// A scan element's type, `le:s16/16>>0` or `be:s12/16>>4`: byte order, sign, bits of value, bits of storage,
/// right shift.
public struct IIOScanType: Sendable, Equatable {
    public var littleEndian: Bool
    public var signed: Bool
    public var realBits: Int
    public var storageBits: Int
    public var shift: Int

    public init(littleEndian: Bool, signed: Bool, realBits: Int, storageBits: Int, shift: Int) {
        self.littleEndian = littleEndian
        self.signed = signed
        self.realBits = realBits
        self.storageBits = storageBits
        self.shift = shift
    }

    /// Parses the kernel's text; nil for anything else (including the repeat form `X2`, which no IMU uses).
    public init?(_ text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts[0] == "le" || parts[0] == "be" else { return nil }
        littleEndian = parts[0] == "le"
        var rest = parts[1]
        guard let sign = rest.first, sign == "s" || sign == "u" else { return nil }
        signed = sign == "s"
        rest = rest.dropFirst()
        let bitsAndShift = rest.split(separator: ">", omittingEmptySubsequences: true)
        guard bitsAndShift.count == 2, let shift = Int(bitsAndShift[1]) else { return nil }
        let bits = bitsAndShift[0].split(separator: "/")
        guard bits.count == 2, let real = Int(bits[0]), let storage = Int(bits[1]), [8, 16, 32, 64].contains(storage),
            real >= 1, real <= storage, shift >= 0, shift + real <= storage
        else { return nil }
        realBits = real
        storageBits = storage
        self.shift = shift
    }

    var storageBytes: Int { storageBits / 8 }

    /// The value of one element's bytes.
    public func decode(_ bytes: [UInt8]) -> Double? {
        guard bytes.count == storageBytes else { return nil }
        return bytes.withUnsafeBytes { value($0, at: 0) }
    }

    /// The value at `offset`.
    func value(_ raw: UnsafeRawBufferPointer, at offset: Int) -> Double {
        var word: UInt64 = 0
        let bytes = storageBytes
        for index in 0..<bytes {
            let byte = UInt64(raw[offset + (littleEndian ? index : bytes - 1 - index)])
            word |= byte << (8 * UInt64(index))
        }
        word >>= UInt64(shift)
        let mask: UInt64 = realBits == 64 ? ~0 : (1 << UInt64(realBits)) - 1
        word &= mask
        if signed && realBits < 64 && word & (1 << UInt64(realBits - 1)) != 0 {
            return Double(Int64(bitPattern: word | ~mask))
        }
        return signed ? Double(Int64(bitPattern: word)) : Double(word)
    }
}
