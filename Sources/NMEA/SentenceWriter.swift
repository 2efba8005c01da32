/// Builds one sentence field by field, then closes it with `*hh`. No Foundation, no allocation.
///
/// Numbers are written with a fixed number of decimals. A value that is not finite, or too large to be a
/// sensible instrument reading, is written as an empty field: an unknown value is never sent as a made-up one.
public struct SentenceWriter {
    /// Values at or beyond this magnitude are written as empty fields.
    public static let largestWritableMagnitude = 1e12

    var sentence = Sentence()
    var overflow = false

    /// Starts a sentence with the given address.
    public init(address: Address, start: UInt8 = UInt8(ascii: "$")) {
        append(start)
        for offset in 0..<address.count { append(address[offset]) }
        sentence.address = address
        sentence.addressEnd = sentence.count
    }

    /// Starts a standard sentence from a talker and a formatter.
    public init(talker: Talker, formatter: Formatter) {
        self.init(address: Address(talker: talker, formatter: formatter))
    }

    mutating func append(_ byte: UInt8) {
        if sentence.count < Sentence.capacity - 3 {
            sentence.storage[sentence.count] = byte
            sentence.count += 1
        } else {
            overflow = true
        }
    }

    /// Starts a new field (writes the comma).
    public mutating func beginField() { append(UInt8(ascii: ",")) }

    /// An empty field.
    public mutating func empty() { beginField() }

    /// A field with one character, or empty.
    public mutating func character(_ value: UInt8?) {
        beginField()
        if let value { append(value) }
    }

    /// A status field: `A` for true, `V` for false, empty for nil.
    public mutating func status(_ value: Bool?) {
        character(value.map { $0 ? UInt8(ascii: "A") : UInt8(ascii: "V") })
    }

    /// A text field. Characters that would break framing (`$ ! * , \ ^ ~`, control and 8-bit bytes) are written
    /// as `_`; at most `limit` bytes are written.
    public mutating func text(_ value: String?, limit: Int = .max) {
        beginField()
        guard let value else { return }
        var written = 0
        for byte in value.utf8 {
            guard written < limit else { break }
            append(SentenceWriter.isTextSafe(byte) ? byte : UInt8(ascii: "_"))
            written += 1
        }
    }

    /// A number with `decimals` digits after the point (none and no point when 0); empty for nil.
    public mutating func number(_ value: Double?, decimals: Int) {
        beginField()
        if let value { appendNumber(value, decimals: decimals, integerDigits: 1) }
    }

    /// A whole number padded with zeros to `width` digits; empty for nil.
    public mutating func integer(_ value: Int?, width: Int = 1) {
        beginField()
        guard let value else { return }
        appendNumber(Double(value), decimals: 0, integerDigits: width)
    }

    /// A magnitude and its hemisphere letter, as two fields (`12.6,W`): east positive.
    /// A value that rounds to zero is written as east, so that re-reading it cannot flip the letter.
    public mutating func eastWest(_ value: Double?, decimals: Int) {
        number(value.map { abs($0) }, decimals: decimals)
        let scale = FieldReader.powersOfTen[min(max(decimals, 0), 9)]
        character(value.map { ($0 * scale).rounded() < 0 ? UInt8(ascii: "W") : UInt8(ascii: "E") })
    }

    /// A latitude as `ddmm.mmmm,N`.
    public mutating func latitude(_ degrees: Double?, minuteDecimals: Int = 4) {
        coordinate(degrees, degreeDigits: 2, minuteDecimals: minuteDecimals, positive: "N", negative: "S")
    }

    /// A longitude as `dddmm.mmmm,E`.
    public mutating func longitude(_ degrees: Double?, minuteDecimals: Int = 4) {
        coordinate(degrees, degreeDigits: 3, minuteDecimals: minuteDecimals, positive: "E", negative: "W")
    }

    private mutating func coordinate(
        _ value: Double?,
        degreeDigits: Int,
        minuteDecimals: Int,
        positive: Unicode.Scalar,
        negative: Unicode.Scalar
    ) {
        beginField()
        guard let value, value.isFinite, abs(value) <= (degreeDigits == 2 ? 90 : 180) else {
            beginField()
            return
        }
        let scale = FieldReader.powersOfTen[minuteDecimals]
        // Round once, in whole units of the last minute digit, so 59.99995' carries into the next degree.
        let units = (abs(value) * 60 * scale).rounded()
        let unitsPerDegree = 60 * scale
        let degrees = (units / unitsPerDegree).rounded(.towardZero)
        let minutes = (units - degrees * unitsPerDegree) / scale
        appendNumber(degrees * 100 + minutes, decimals: minuteDecimals, integerDigits: degreeDigits + 2)
        character(UInt8(ascii: value < 0 ? negative : positive))
    }

    /// A UTC time as `hhmmss.ss`; empty for nil.
    public mutating func time(_ value: UTCTime?) {
        beginField()
        guard let value else { return }
        // Wrapped into one day, so that no value of a public type can make the writer trap.
        let milliseconds = (value.millisecondsOfDay % 86_400_000 + 86_400_000) % 86_400_000
        let centiseconds = (milliseconds + 5) / 10
        let total = centiseconds / 100
        let hours = total / 3600 % 24
        let minutes = total / 60 % 60
        let seconds = total % 60
        appendDigits(hours, width: 2)
        appendDigits(minutes, width: 2)
        appendDigits(seconds, width: 2)
        append(UInt8(ascii: "."))
        appendDigits(centiseconds % 100, width: 2)
    }

    /// A date as `ddmmyy`; empty for nil.
    public mutating func date(_ value: UTCDate?) {
        beginField()
        guard let value else { return }
        guard (1...31).contains(value.day), (1...12).contains(value.month) else { return }
        appendDigits(value.day, width: 2)
        appendDigits(value.month, width: 2)
        appendDigits((value.year % 100 + 100) % 100, width: 2)
    }

    /// An FAA mode letter, or an empty field.
    public mutating func faaMode(_ mode: FAAMode?) { character(mode?.rawValue) }

    /// Closes the sentence with `*hh`.
    ///
    /// - Throws: ``EncodeError/tooLong(length:)`` when it would exceed 82 bytes with CR LF.
    public mutating func finish() throws(EncodeError) -> Sentence {
        guard !overflow else { throw .tooLong(length: Sentence.capacity) }
        let star = sentence.count
        let sum = sentence.storage.span.withUnsafeBufferPointer { Checksum.xor($0, 1..<star) }
        sentence.storage[star] = UInt8(ascii: "*")
        sentence.storage[star + 1] = Checksum.hexDigit(sum >> 4)
        sentence.storage[star + 2] = Checksum.hexDigit(sum)
        sentence.count = star + 3
        sentence.bodyEnd = star
        guard sentence.wireLength <= FramerConfiguration.strictMaximumLength else {
            throw .tooLong(length: sentence.wireLength)
        }
        return sentence
    }

    /// Bytes written so far, with the `*hh` and CR LF still to come.
    public var projectedWireLength: Int { sentence.count + 5 }

    static func isTextSafe(_ byte: UInt8) -> Bool {
        guard byte >= 0x20 && byte < 0x7F else { return false }
        switch byte {
        case UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "*"), UInt8(ascii: ","), UInt8(ascii: "\\"),
            UInt8(ascii: "^"), UInt8(ascii: "~"):
            return false
        default:
            return true
        }
    }

    /// 64-bit, also on a 32-bit Pi (armhf), whose `Int` would trap on a value past 2^31 (the writer takes up to 1e12).
    private mutating func appendDigits(_ value: some BinaryInteger, width: Int) {
        let value = Int64(value)
        precondition(value >= 0, "only the writer's own callers reach here, with non-negative values")
        var divisor: Int64 = 1
        var digits = 1
        while digits < width || value / divisor >= 10 {
            divisor *= 10
            digits += 1
        }
        var remainder = value
        while divisor > 0 {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remainder / divisor))
            remainder %= divisor
            divisor /= 10
        }
    }

    private mutating func appendNumber(_ value: Double, decimals: Int, integerDigits: Int) {
        let decimals = min(max(decimals, 0), 9)
        guard value.isFinite, abs(value) < SentenceWriter.largestWritableMagnitude else { return }
        let scale = FieldReader.powersOfTen[decimals]
        guard abs(value) * scale < 9e18 else { return }
        let scaled = Int64((abs(value) * scale).rounded())
        // A value that rounds to zero is written without a sign: "-0.0" confuses some displays.
        if value < 0 && scaled != 0 { append(UInt8(ascii: "-")) }
        let unit = Int64(scale)
        appendDigits(scaled / unit, width: integerDigits)
        if decimals > 0 {
            append(UInt8(ascii: "."))
            appendDigits(scaled % unit, width: decimals)
        }
    }
}

/// A sentence type that Telltale can write.
public protocol EncodableSentence: Sendable {
    /// The formatter written after the talker.
    static var formatter: Formatter { get }
    /// How many shortening steps ``write(to:shortening:)`` knows (identifiers cut, XDR quadruples dropped).
    var shorteningSteps: Int { get }
    /// Writes the fields after the address; `shortening` 0 writes everything, higher values write less.
    func write(to writer: inout SentenceWriter, shortening: Int)
}

extension EncodableSentence {
    public var shorteningSteps: Int { 0 }

    /// Encodes the sentence with a talker, shortening it as far as needed to fit in 82 bytes.
    ///
    /// - Throws: ``EncodeError/tooLong(length:)`` when even the shortest form does not fit.
    public func encode(talker: Talker) throws(EncodeError) -> Sentence {
        var lastError = EncodeError.tooLong(length: 0)
        for step in 0...max(shorteningSteps, 0) {
            var writer = SentenceWriter(talker: talker, formatter: Self.formatter)
            write(to: &writer, shortening: step)
            do {
                return try writer.finish()
            } catch {
                lastError = error
            }
        }
        throw lastError
    }
}

/// Shortening of waypoint identifiers, the way chartplotters do it: the longest are cut first.
enum IdentifierShortening {
    /// The byte limit for identifiers at a shortening step: no limit at step 0, then one byte less per step.
    static func limit(step: Int, longest: Int) -> Int {
        step == 0 ? .max : max(1, longest - step)
    }

    /// Steps needed to bring the longest identifier down to one byte.
    static func steps(longest: Int) -> Int { max(0, longest - 1) }
}
