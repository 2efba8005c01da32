/// One I²C transaction as a transcript line.
///
/// `W 68 6b 80` writes 0x80 to register 0x6b of the chip at 0x68; `R 68 75 : 68` reads register 0x75 and gets
/// 0x68 (several bytes after the colon for a burst read); `P 0.1` is a pause. `#` starts a comment. This is what
/// ``RecordingI2CBus`` writes from a real bus and what ``ScriptedI2CBus`` replays in the tests.
public enum I2CTransaction: Equatable, Sendable, CustomStringConvertible {
    case write(address: UInt8, bytes: [UInt8])
    case read(address: UInt8, register: UInt8, bytes: [UInt8])
    case pause(seconds: Double)

    public var description: String {
        func hexes(_ bytes: [UInt8]) -> String { bytes.map { String(hex($0).dropFirst(2)) }.joined(separator: " ") }
        switch self {
        case .write(let address, let bytes): return "W \(hexes([address])) \(hexes(bytes))"
        case .read(let address, let register, let bytes):
            return "R \(hexes([address])) \(hexes([register])) : \(hexes(bytes))"
        case .pause(let seconds): return "P \(seconds)"
        }
    }

    /// Parses a transcript; the error names the line.
    public static func parse(_ text: String) throws(TranscriptError) -> [I2CTransaction] {
        var result: [I2CTransaction] = []
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let first = words.first else { continue }
            func bytes(_ items: ArraySlice<Substring>) throws(TranscriptError) -> [UInt8] {
                var out: [UInt8] = []
                for item in items {
                    guard let value = UInt8(item.hasPrefix("0x") ? item.dropFirst(2) : item, radix: 16) else {
                        throw TranscriptError(line: number + 1, message: "\(item) is not a hexadecimal byte")
                    }
                    out.append(value)
                }
                return out
            }
            switch first {
            case "W":
                let values = try bytes(words.dropFirst())
                guard values.count >= 2 else { throw TranscriptError(line: number + 1, message: "W address bytes...") }
                result.append(.write(address: values[0], bytes: Array(values.dropFirst())))
            case "R":
                guard let colon = words.firstIndex(of: ":") else {
                    throw TranscriptError(line: number + 1, message: "R address register : bytes...")
                }
                let head = try bytes(words[1..<colon])
                let values = try bytes(words[(colon + 1)...])
                guard head.count == 2, !values.isEmpty else {
                    throw TranscriptError(line: number + 1, message: "R address register : bytes...")
                }
                result.append(.read(address: head[0], register: head[1], bytes: values))
            case "P":
                guard words.count == 2, let seconds = Double(words[1]) else {
                    throw TranscriptError(line: number + 1, message: "P seconds")
                }
                result.append(.pause(seconds: seconds))
            default:
                throw TranscriptError(line: number + 1, message: "a line starts with W, R or P")
            }
        }
        return result
    }
}

public struct TranscriptError: Error, CustomStringConvertible, Sendable {
    public let line: Int
    public let message: String
    public var description: String { "transcript line \(line): \(message)" }
}

/// A bus that plays a transcript: each write must be the next one expected (so a test asserts a driver's
/// configuration byte for byte), each read answers with the recorded bytes. A read can also be answered from
/// `registers` when the transcript has run out (a chip that keeps streaming the same sample).
public final class ScriptedI2CBus: I2CBus {
    public let name: String
    public private(set) var statistics = I2CStatistics()
    private var script: [I2CTransaction]
    private var position = 0
    /// What was done, in order (pauses included): to compare with the transcript, or to print.
    public private(set) var log: [I2CTransaction] = []
    /// The first difference between what the driver did and the transcript.
    public private(set) var mismatch: String?
    /// Failures to inject: the next `n` transfers to this address fail with this kind.
    public var failures: [(address: UInt8, kind: I2CError.Kind)] = []

    public init(name: String = "/dev/i2c-test", transcript: [I2CTransaction]) {
        self.name = name
        script = transcript
    }

    /// The transactions not yet played.
    public var remaining: ArraySlice<I2CTransaction> { script[position...] }

    public func write(_ address: UInt8, _ bytes: [UInt8]) throws(I2CError) {
        statistics.transactions += 1
        try injected(address)
        let done = I2CTransaction.write(address: address, bytes: bytes)
        log.append(done)
        skipPauses()
        guard position < script.count, script[position] == done else {
            return try unexpected(done)
        }
        position += 1
    }

    public func read(_ address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        statistics.transactions += 1
        try injected(address)
        skipPauses()
        guard position < script.count, case .read(address, register, let bytes) = script[position],
            bytes.count == buffer.count
        else {
            let done = I2CTransaction.read(
                address: address, register: register, bytes: Array(repeating: 0, count: buffer.count))
            log.append(done)
            return try unexpected(done)
        }
        position += 1
        log.append(.read(address: address, register: register, bytes: bytes))
        for (index, byte) in bytes.enumerated() { buffer[index] = byte }
    }

    public func pause(seconds: Double) {
        log.append(.pause(seconds: seconds))
        if position < script.count, case .pause = script[position] { position += 1 }
    }

    private func skipPauses() {
        while position < script.count, case .pause = script[position] { position += 1 }
    }

    private func injected(_ address: UInt8) throws(I2CError) {
        if let index = failures.firstIndex(where: { $0.address == address }) {
            let failure = failures.remove(at: index)
            statistics.errors += 1
            throw I2CError(
                failure.kind, bus: name, address: address,
                detail: failure.kind == .noAcknowledge
                    ? "no acknowledge (nothing answers at this address)" : "injected failure")
        }
    }

    private func unexpected(_ done: I2CTransaction) throws(I2CError) {
        let expected = position < script.count ? script[position].description : "the end of the transcript"
        let message = "expected \(expected), the driver did \(done.description) (transaction \(position + 1))"
        if mismatch == nil { mismatch = message }
        statistics.errors += 1
        throw I2CError(.unexpected, bus: name, address: done.address, detail: message)
    }
}

extension I2CTransaction {
    var address: UInt8 {
        switch self {
        case .write(let address, _), .read(let address, _, _): address
        case .pause: 0
        }
    }
}

/// Wraps a bus and keeps every transaction, to write a transcript of a real chip (`telltale imu --transcript`).
public final class RecordingI2CBus: I2CBus {
    public let inner: any I2CBus
    public private(set) var log: [I2CTransaction] = []
    public var name: String { inner.name }
    public var statistics: I2CStatistics { inner.statistics }
    /// Stop keeping reads after this many transactions (a long run would otherwise grow without bound).
    public var limit = 10_000

    public init(_ inner: any I2CBus) {
        self.inner = inner
    }

    public func write(_ address: UInt8, _ bytes: [UInt8]) throws(I2CError) {
        try inner.write(address, bytes)
        if log.count < limit { log.append(.write(address: address, bytes: bytes)) }
    }

    public func read(_ address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        try inner.read(address, register: register, into: buffer)
        if log.count < limit { log.append(.read(address: address, register: register, bytes: Array(buffer))) }
    }

    public func pause(seconds: Double) {
        inner.pause(seconds: seconds)
        if log.count < limit { log.append(.pause(seconds: seconds)) }
    }

    /// The transcript text.
    public var transcript: String { log.map { $0.description }.joined(separator: "\n") + "\n" }
}
