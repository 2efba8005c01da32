/// An NMEA 4.10 tag block: `\c:1241544035,s:r003669945*4A\` in front of a sentence.
///
/// The tag block has its own checksum over the bytes between `\` and `*`. Parameters Telltale reads:
/// `c:` UNIX time (seconds when 12 digits or fewer, else milliseconds), `s:` source, `n:` line count,
/// `g:` sentence grouping (`number-total-id`). Others are skipped.
///
/// Stored inline (the source identifier up to ``maximumSourceLength`` bytes) so that a ``Sentence`` carrying one
/// stays plain data and copies without reference counting.
public struct TagBlock: Hashable, Sendable {
    /// The longest `s:` source kept; longer ones are cut (NMEA 4.10 allows 15 characters).
    public static let maximumSourceLength = 31

    /// `c:` as UNIX milliseconds.
    public var unixMilliseconds: Int64?
    private var sourceBytes = InlineArray<31, UInt8>(repeating: 0)
    /// Bytes of the source, or -1 when there is none.
    private var sourceCount: Int8 = -1
    /// `n:` line count.
    public var lineCount: Int?
    /// `g:` grouping.
    public var group: Group?

    public struct Group: Hashable, Sendable {
        public var sentenceNumber: Int
        public var totalSentences: Int
        public var groupID: Int

        public init(sentenceNumber: Int, totalSentences: Int, groupID: Int) {
            self.sentenceNumber = sentenceNumber
            self.totalSentences = totalSentences
            self.groupID = groupID
        }
    }

    /// `s:` source identifier (at most ``maximumSourceLength`` bytes are kept).
    public var source: String? {
        get {
            guard sourceCount >= 0 else { return nil }
            return String(decoding: (0..<Int(sourceCount)).map { sourceBytes[$0] }, as: UTF8.self)
        }
        set {
            guard let newValue else {
                sourceCount = -1
                return
            }
            var count = 0
            for byte in newValue.utf8.prefix(TagBlock.maximumSourceLength) {
                sourceBytes[count] = byte
                count += 1
            }
            sourceCount = Int8(count)
        }
    }

    public static func == (lhs: TagBlock, rhs: TagBlock) -> Bool {
        lhs.unixMilliseconds == rhs.unixMilliseconds && lhs.source == rhs.source && lhs.lineCount == rhs.lineCount
            && lhs.group == rhs.group
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(unixMilliseconds)
        hasher.combine(source)
        hasher.combine(lineCount)
        hasher.combine(group)
    }

    public init(unixMilliseconds: Int64? = nil, source: String? = nil, lineCount: Int? = nil, group: Group? = nil) {
        self.unixMilliseconds = unixMilliseconds
        self.source = source
        self.lineCount = lineCount
        self.group = group
    }

    /// Parses the bytes strictly between the two backslashes; nil when the checksum is wrong or a field unreadable.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> TagBlock? {
        guard let star = bytes.lastIndex(of: UInt8(ascii: "*")) else { return nil }
        let digits = bytes.count - star - 1
        guard digits == 1 || digits == 2 else { return nil }
        var found: UInt8 = 0
        for index in (star + 1)..<bytes.count {
            guard let value = Checksum.hexValue(bytes[index]) else { return nil }
            found = found << 4 | value
        }
        guard Checksum.xor(bytes, 0..<star) == found else { return nil }
        var block = TagBlock()
        var start = 0
        while start < star {
            var end = start
            while end < star && bytes[end] != UInt8(ascii: ",") { end += 1 }
            guard end - start >= 2, bytes[start + 1] == UInt8(ascii: ":") else { return nil }
            let value = (start + 2)..<end
            switch bytes[start] {
            case UInt8(ascii: "c"):
                guard let number = parseInteger(bytes, value) else { return nil }
                block.unixMilliseconds = value.count <= 12 ? number &* 1000 : number
            case UInt8(ascii: "s"):
                block.setSource(UnsafeBufferPointer(rebasing: bytes[value]))
            case UInt8(ascii: "n"):
                guard let number = parseInteger(bytes, value), number <= Int32.max else { return nil }
                block.lineCount = Int(number)
            case UInt8(ascii: "g"):
                guard let group = parseGroup(bytes, value) else { return nil }
                block.group = group
            default:
                break
            }
            start = end + 1
        }
        return block
    }

    /// Writes `\params*hh\` for this block (only `c:`, `s:`, `n:`, `g:` that are set).
    public func encoded() -> [UInt8] {
        var body: [UInt8] = []
        func separator() { if !body.isEmpty { body.append(UInt8(ascii: ",")) } }
        if let group {
            separator()
            body += Array("g:\(group.sentenceNumber)-\(group.totalSentences)-\(group.groupID)".utf8)
        }
        if let source {
            separator()
            body += Array("s:\(source)".utf8)
        }
        if let unixMilliseconds {
            separator()
            body += Array("c:\(unixMilliseconds)".utf8)
        }
        if let lineCount {
            separator()
            body += Array("n:\(lineCount)".utf8)
        }
        let sum = Checksum.xor(body)
        return [UInt8(ascii: "\\")] + body + [
            UInt8(ascii: "*"), Checksum.hexDigit(sum >> 4), Checksum.hexDigit(sum),
            UInt8(ascii: "\\"),
        ]
    }

    private mutating func setSource(_ bytes: UnsafeBufferPointer<UInt8>) {
        let count = min(bytes.count, TagBlock.maximumSourceLength)
        for index in 0..<count { sourceBytes[index] = bytes[index] }
        sourceCount = Int8(count)
    }

    private static func parseInteger(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int64? {
        guard !range.isEmpty, range.count <= 18 else { return nil }
        var value: Int64 = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func parseGroup(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Group? {
        var parts: (Int64?, Int64?, Int64?) = (nil, nil, nil)
        var partStart = range.lowerBound
        var partIndex = 0
        for index in range.lowerBound...range.upperBound {
            guard index == range.upperBound || bytes[index] == UInt8(ascii: "-") else { continue }
            guard let number = parseInteger(bytes, partStart..<index) else { return nil }
            switch partIndex {
            case 0: parts.0 = number
            case 1: parts.1 = number
            case 2: parts.2 = number
            default: return nil
            }
            partIndex += 1
            partStart = index + 1
        }
        // Past 32 bits is no group, and would trap `Int` on a 32-bit Pi (armhf).
        guard let number = parts.0, let total = parts.1, let id = parts.2, max(number, total, id) <= Int32.max
        else { return nil }
        return Group(sentenceNumber: Int(number), totalSentences: Int(total), groupID: Int(id))
    }
}
