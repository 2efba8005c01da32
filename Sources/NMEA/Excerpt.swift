/// The first bytes of a rejected line, kept inline so that a reject can be shown without allocating.
public struct Excerpt: Sendable, CustomStringConvertible {
    public static let capacity = 96

    private var storage = InlineArray<96, UInt8>(repeating: 0)
    /// Bytes kept (at most ``capacity``).
    public private(set) var count = 0
    /// Length of the whole line the excerpt was taken from.
    public private(set) var lineLength = 0
    /// The physical line of the input, counting from 1.
    public private(set) var line = 0

    public init() {}

    init(_ bytes: UnsafeBufferPointer<UInt8>, lineLength: Int, line: Int) {
        self.line = line
        count = min(bytes.count, Excerpt.capacity)
        for index in 0..<count { storage[index] = bytes[index] }
        self.lineLength = lineLength
    }

    /// The kept bytes.
    public var bytes: [UInt8] { (0..<count).map { storage[$0] } }

    /// Printable text: control and 8-bit bytes are shown as `<0xNN>`, a cut line ends in `...`.
    public var description: String {
        var text = ""
        for index in 0..<count {
            let byte = storage[index]
            if byte >= 0x20 && byte < 0x7F {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(decoding: [Checksum.hexDigit(byte >> 4), Checksum.hexDigit(byte)], as: UTF8.self)
                text += "<0x" + hex + ">"
            }
        }
        if lineLength > count { text += "..." }
        return text
    }
}
