/// One framed, checksum-verified NMEA 0183 sentence, stored inline (no heap allocation).
///
/// The bytes run from the start character (`$` or `!`) through the two upper-case checksum digits, without the
/// line ending. A sentence read without a checksum (accepted by a lenient input) gets one computed here, so
/// everything passed on is well formed.
public struct Sentence: Sendable {
    /// The most bytes a stored sentence line can hold.
    public static let capacity = 248

    var storage: InlineArray<248, UInt8>
    /// Number of bytes, from the start character through the checksum digits.
    public internal(set) var count: Int
    /// Index of `*`.
    var bodyEnd: Int
    /// Index of the first comma after the address, or `bodyEnd` when the sentence has no fields.
    var addressEnd: Int
    /// The address field.
    public internal(set) var address: Address
    /// The NMEA 4.10 tag block that preceded the sentence, if any.
    public var tagBlock: TagBlock?
    /// The physical line of the input the sentence was read from, counting from 1 (0 when it was not read).
    public internal(set) var line = 0

    init() {
        storage = InlineArray(repeating: 0)
        count = 0
        bodyEnd = 0
        addressEnd = 0
        address = Address(talker: Talker(0x30, 0x30), formatter: Formatter(0x30, 0x30, 0x30))
        tagBlock = nil
    }

    /// Parses one line (with or without its line ending) as a sentence.
    ///
    /// - Parameters:
    ///   - line: the text, `$GPHDT,274.07,T*03` for example.
    ///   - requiresChecksum: reject a sentence without `*hh` (the default).
    ///   - maximumLength: the most bytes accepted, counted with `$` and CR LF.
    /// - Throws: ``FramingError`` when the line is not one valid sentence.
    public init(
        parsing line: some Sequence<UInt8>,
        requiresChecksum: Bool = true,
        maximumLength: Int = FramerConfiguration.lenientMaximumLength
    ) throws(FramingError) {
        var framer = SentenceFramer(
            configuration: FramerConfiguration(maximumLength: maximumLength, requiresChecksum: requiresChecksum))
        var result: Result<Sentence, FramingError> = .failure(.noStartCharacter(length: 0))
        var seen = false
        // The first event decides: a second line in the input is not part of this sentence.
        let take: (FramerEvent) -> Void = { event in
            guard !seen else { return }
            seen = true
            switch event {
            case .sentence(let sentence): result = .success(sentence)
            case .rejected(let error, _): result = .failure(error)
            }
        }
        framer.feed(line, take)
        framer.finish(take)
        self = try result.get()
    }

    /// Parses a sentence from text.
    public init(parsing text: String, requiresChecksum: Bool = true) throws(FramingError) {
        try self.init(parsing: text.utf8, requiresChecksum: requiresChecksum)
    }

    /// Calls `body` with the sentence bytes, start character through checksum digits.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        let count = self.count
        return try storage.span.withUnsafeBufferPointer { (buffer) throws(E) -> R in
            try body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// The start character: `$`, or `!` for encapsulated (AIS-style) sentences.
    public var startCharacter: UInt8 { storage[0] }

    /// The checksum carried by the sentence.
    public var checksum: UInt8 {
        (Checksum.hexValue(storage[bodyEnd + 1]) ?? 0) << 4 | (Checksum.hexValue(storage[bodyEnd + 2]) ?? 0)
    }

    /// The sentence bytes without the line ending.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The sentence as it goes on the wire: its bytes and CR LF.
    public var wireBytes: [UInt8] { bytes + [0x0D, 0x0A] }

    /// Appends the wire form (bytes and CR LF) to a buffer.
    public func appendWire(to buffer: inout [UInt8]) {
        withUnsafeBytes { buffer.append(contentsOf: $0) }
        buffer.append(0x0D)
        buffer.append(0x0A)
    }

    /// Length on the wire, with CR LF.
    public var wireLength: Int { count + 2 }

    /// Number of fields after the address.
    public var fieldCount: Int {
        guard addressEnd < bodyEnd else { return 0 }
        var fields = 1
        for index in (addressEnd + 1)..<bodyEnd where storage[index] == UInt8(ascii: ",") {
            fields += 1
        }
        return fields
    }

    /// The text of field `index` (0 is the first field after the address); nil when absent.
    public func field(_ index: Int) -> String? {
        withUnsafeBytes { bytes in
            var reader = FieldReader(bytes: bytes, fieldsStart: addressEnd, fieldsEnd: bodyEnd)
            var current = 0
            while let range = reader.nextRange() {
                if current == index {
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                }
                current += 1
            }
            return nil
        }
    }

    /// A reader positioned before the first field.
    public func withFieldReader<R, E: Error>(_ body: (inout FieldReader) throws(E) -> R) throws(E) -> R {
        let start = addressEnd
        let end = bodyEnd
        return try withUnsafeBytes { (bytes) throws(E) -> R in
            var reader = FieldReader(bytes: bytes, fieldsStart: start, fieldsEnd: end)
            return try body(&reader)
        }
    }

    /// Runs a decoder over the fields, without copying the sentence.
    @inline(__always)
    func decodeFields<R>(_ body: (inout FieldReader) throws(DecodeError) -> R) throws(DecodeError) -> R {
        let start = addressEnd
        let end = bodyEnd
        return try storage.span.withUnsafeBufferPointer { (bytes) throws(DecodeError) -> R in
            var reader = FieldReader(bytes: bytes, fieldsStart: start, fieldsEnd: end)
            return try body(&reader)
        }
    }

    /// Runs a decoder over the fields of a sentence held `inout` (the framer's sinks hold it so): the bytes are read
    /// where they lie, where a borrowed sentence's storage was copied (248 bytes) before its span could be read.
    @inline(__always)
    mutating func decodeFieldsInPlace<R>(_ body: (inout FieldReader) throws(DecodeError) -> R) throws(DecodeError)
        -> R
    {
        let start = addressEnd
        let end = bodyEnd
        var span = storage.mutableSpan
        return try span.withUnsafeMutableBufferPointer { (bytes) throws(DecodeError) -> R in
            var reader = FieldReader(bytes: UnsafeBufferPointer(bytes), fieldsStart: start, fieldsEnd: end)
            return try body(&reader)
        }
    }

    /// Checks the line held in `storage[0..<count]` and normalises its checksum to two upper-case digits.
    ///
    /// The caller has already checked the start character, the bytes and the length, found the first `*` (`star`,
    /// -1 when there is none) and XORed the bytes between the start character and it (`sum`) as they arrived.
    mutating func validate(requiresChecksum: Bool, star: Int, sum: UInt8) throws(FramingError) {
        let length = count
        var span = storage.mutableSpan
        let outcome: Result<(count: Int, star: Int, addressEnd: Int), FramingError> =
            span.withUnsafeMutableBufferPointer { line in
                Sentence.normalise(
                    line, length: length, requiresChecksum: requiresChecksum, star: star < 0 ? length : star, sum: sum)
            }
        let checked = try outcome.get()
        count = checked.count
        bodyEnd = checked.star
        addressEnd = checked.addressEnd
        let parsed = storage.span.withUnsafeBufferPointer { Address(bytes: $0, range: 1..<checked.addressEnd) }
        guard let parsed else { throw .badAddress }
        address = parsed
    }

    /// Checks the checksum and rewrites it as two upper-case digits (adding one when none was sent and none is
    /// required). Returns the new length, the index of `*` and the end of the address.
    private static func normalise(
        _ line: UnsafeMutableBufferPointer<UInt8>, length: Int, requiresChecksum: Bool, star: Int, sum: UInt8
    ) -> Result<(count: Int, star: Int, addressEnd: Int), FramingError> {
        var star = star
        var sum = sum
        var addressEnd = 1
        while addressEnd < star && line[addressEnd] != UInt8(ascii: ",") { addressEnd &+= 1 }
        var count: Int
        if star == length {
            var end = length
            while end > 1 && (line[end - 1] == 0x20 || line[end - 1] == 0x09) {
                end -= 1
                sum ^= line[end]
            }
            guard !requiresChecksum else { return .failure(.missingChecksum) }
            guard end + 3 <= Sentence.capacity else { return .failure(.tooLong(length: end + 5)) }
            star = end
        } else {
            guard star + 1 < length, let high = Checksum.hexValue(line[star + 1]) else {
                return .failure(.malformedChecksum)
            }
            var found = high
            var digitsEnd = star + 2
            if digitsEnd < length, let low = Checksum.hexValue(line[digitsEnd]) {
                found = high << 4 | low
                digitsEnd += 1
            }
            guard isTolerableTrailer(line, digitsEnd..<length) else { return .failure(.malformedChecksum) }
            guard sum == found else { return .failure(.checksumMismatch(expected: sum, found: found)) }
        }
        line[star] = UInt8(ascii: "*")
        line[star + 1] = Checksum.hexDigit(sum >> 4)
        line[star + 2] = Checksum.hexDigit(sum)
        count = star + 3
        if addressEnd > star { addressEnd = star }
        return .success((count, star, addressEnd))
    }

    /// What real loggers leave after a checksum and does not make the sentence wrong: blanks, or the text
    /// `<0x0D>` / `<0x0A>` where a logger wrote a line ending out as text.
    private static func isTolerableTrailer(_ line: UnsafeMutableBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = line[index]
            if byte == 0x20 || byte == 0x09 {
                index += 1
                continue
            }
            guard index + 6 <= range.upperBound, byte == UInt8(ascii: "<"), line[index + 1] == UInt8(ascii: "0"),
                line[index + 2] | 0x20 == UInt8(ascii: "x"), line[index + 3] == UInt8(ascii: "0"),
                line[index + 4] | 0x20 == UInt8(ascii: "d") || line[index + 4] | 0x20 == UInt8(ascii: "a"),
                line[index + 5] == UInt8(ascii: ">")
            else { return false }
            index += 6
        }
        return true
    }
}

extension Sentence: Equatable {
    public static func == (lhs: Sentence, rhs: Sentence) -> Bool {
        lhs.tagBlock == rhs.tagBlock && lhs.bytes == rhs.bytes
    }
}

extension Sentence: CustomStringConvertible {
    /// The sentence text without the line ending.
    public var description: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
}
