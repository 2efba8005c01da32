/// Turns a byte stream, in any chunking, into sentences and counted rejects.
///
/// Sans-I/O: the caller feeds bytes and receives events through a closure; nothing here reads a device.
/// Framing allocates nothing per sentence: the line is collected in inline storage.
///
/// Rules: `$` and `!` start a sentence, `\` a tag block; CR LF, LF or CR end a line. A start character in the
/// middle of a sentence ends the earlier one as truncated (a device unplugged mid-line) and begins the next.
/// Control characters other than the line ending, NUL, and bytes of 0x7F and above make the line invalid.
public struct SentenceFramer: Sendable {
    enum State: Sendable {
        case idle
        case garbage
        case tagBlock
        case sentence
    }

    public let configuration: FramerConfiguration
    public internal(set) var statistics = FramerStatistics()
    /// The physical line the framer is on, counting from 1 (for pointing at a reject in a file).
    public internal(set) var lineNumber = 1
    var lastWasCarriageReturn = false

    var state = State.idle
    var pending = Sentence()
    /// Bytes of the current line, which may exceed what `pending` can hold.
    var lineLength = 0
    var firstInvalid: (byte: UInt8, offset: Int)?
    /// Where the current sentence's first `*` is (-1 before one is seen), and the XOR of its bytes between the
    /// start character and that `*`: the checksum, computed as the bytes arrive.
    var star = -1
    var sum: UInt8 = 0
    var tagStorage = InlineArray<128, UInt8>(repeating: 0)
    var tagCount = 0
    var tagOverflow = false
    var pendingTag: TagBlock?
    var tagIsBad = false
    var tagClosed = false

    public init(configuration: FramerConfiguration = FramerConfiguration()) {
        self.configuration = configuration
    }

    /// Feeds bytes; `body` receives every sentence and reject they complete.
    public mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes, _ body: (FramerEvent) -> Void) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            feed(buffer, body)
        }
        if handled == nil {
            Array(bytes).withUnsafeBufferPointer { feed($0, body) }
        }
    }

    /// Feeds a buffer of bytes.
    public mutating func feed(_ buffer: UnsafeBufferPointer<UInt8>, _ body: (FramerEvent) -> Void) {
        withoutActuallyEscaping(body) { body in
            var sink = EventSink(body: body)
            feed(buffer, into: &sink)
        }
    }

    /// Feeds a buffer of bytes, handing sentences and rejects to `sink` directly: a sentence is lent to it, never
    /// copied into an event first (a ``Sentence`` is some 350 bytes, and those copies were a quarter of the time
    /// `inspect` took).
    public mutating func feed<Sink: FramerSink>(_ buffer: UnsafeBufferPointer<UInt8>, into sink: inout Sink) {
        frame(buffer, into: &sink)
    }

    @inline(__always)
    mutating func frame<Sink: FramerSink>(_ buffer: UnsafeBufferPointer<UInt8>, into sink: inout Sink) {
        statistics.bytes &+= buffer.count
        let end = buffer.count
        var index = 0
        while index < end {
            if state == .sentence {
                index = copyRun(buffer, from: index)
                if index == end { break }
            }
            consume(buffer[index], &sink)
            index &+= 1
        }
    }

    /// Copies the run of ordinary bytes from `start` into the pending line and adds them to its checksum, judged and
    /// copied 8 bytes at a time in one 64-bit word (the bit tricks for "a byte below n", "a byte above n" and "a
    /// zero byte"); in the word that holds the first byte that is not ordinary, the bytes before it are taken at
    /// once, then byte by byte to the next. Returns where the run ends.
    ///
    /// One pass does what three did (find the run, copy it with `memmove`, and later read it again for the
    /// checksum): those were a third of the time `inspect` spent.
    @inline(__always)
    mutating func copyRun(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // The high bit of each zero byte (and perhaps of bytes above the lowest zero).
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        var position = start
        var length = lineLength
        var folded: UInt64 = 0
        let source = UnsafeRawBufferPointer(buffer)
        let wordsEnd = buffer.count &- 8
        // Words only while no `*` has been seen: after it come the checksum digits, which are not summed.
        if star < 0 {
            var span = pending.storage.mutableSpan
            span.withUnsafeMutableBytes { line in
                while position <= wordsEnd && length <= Sentence.capacity &- 8 {
                    let x = UInt64(littleEndian: source.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                    let below = (x &- ones &* 0x20) & ~x & highs  // a byte under 0x20
                    let above = ((x &+ ones &* (127 - 0x7E)) | x) & highs  // a byte over 0x7E
                    let special =
                        below | above | zeroBytes(x ^ (ones &* 0x24)) | zeroBytes(x ^ (ones &* 0x21))
                        | zeroBytes(x ^ (ones &* 0x5C)) | zeroBytes(x ^ (ones &* 0x2A))
                    line.storeBytes(of: x.littleEndian, toByteOffset: length, as: UInt64.self)
                    if special != 0 {
                        // The lowest flagged byte is exact (a borrow or carry only runs upwards, from a byte that is
                        // flagged itself): the bytes below it are the run's last, taken here rather than one by one.
                        let ordinary = special.trailingZeroBitCount &>> 3
                        folded ^= x & ~(UInt64.max &<< UInt64(ordinary &* 8))
                        position &+= ordinary
                        length &+= ordinary
                        break
                    }
                    folded ^= x
                    position &+= 8
                    length &+= 8
                }
            }
            folded ^= folded >> 32
            folded ^= folded >> 16
            folded ^= folded >> 8
            sum ^= UInt8(truncatingIfNeeded: folded)
        }
        lineLength = length
        while position < buffer.count {
            let byte = buffer[position]
            guard SentenceFramer.isOrdinary(byte) else { break }
            appendToSentence(byte)
            position &+= 1
        }
        if position > start { lastWasCarriageReturn = false }
        return position
    }

    /// Printable ASCII that is neither a start character nor a tag-block delimiter.
    @inline(__always)
    static func isOrdinary(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "$") && byte != UInt8(ascii: "!")
            && byte != UInt8(ascii: "\\")
    }

    /// Appends a byte of a sentence, keeping its checksum and the place of its first `*`.
    @inline(__always)
    mutating func appendToSentence(_ byte: UInt8) {
        if star < 0 {
            if byte == UInt8(ascii: "*") {
                star = lineLength
            } else {
                sum ^= byte
            }
        }
        append(byte)
    }

    /// Ends the stream: a last line without a line ending is judged as if it had one.
    public mutating func finish(_ body: (FramerEvent) -> Void) {
        withoutActuallyEscaping(body) { body in
            var sink = EventSink(body: body)
            finish(into: &sink)
        }
    }

    /// Ends the stream, handing what it completes to `sink`.
    public mutating func finish<Sink: FramerSink>(into sink: inout Sink) {
        endLine(&sink)
    }
}
