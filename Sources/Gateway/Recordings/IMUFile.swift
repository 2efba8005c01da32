import CPosix
import Engine
import Platform
import Router

/// IMU samples from the CSV format `telltale simulate` writes: a header `time_s,ax,ay,az,gx,gy,gz` (optionally
/// `,mx,my,mz`); time in UNIX seconds; body frame x forward, y starboard, z down; specific force in m/s²; rates in
/// degrees per second. Columns are found by name; a line that cannot be read is counted and skipped.
public struct IMUFile: Sendable {
    /// One sample: the engine's IMU event, so samples read here go to a replay unchanged.
    public typealias Sample = ReplaySession.IMUEvent

    public struct ParseError: Error, CustomStringConvertible {
        public var path: String
        public var line: Int
        public var message: String
        public var description: String { "\(path): line \(line): \(message)" }
    }

    public var samples: [Sample]
    /// Lines that could not be read (counted, skipped).
    public var rejected: Int
    /// Samples whose time was out of line with the file's clock, left out (``LogClock``).
    public var timeGlitches = 0

    public init(samples: [Sample], rejected: Int) {
        self.samples = samples
        self.rejected = rejected
    }

    public static func read(_ path: String) throws(ParseError) -> IMUFile {
        let bytes: [UInt8]
        do { bytes = try POSIX.readFile(path) } catch { throw ParseError(path: path, line: 0, message: "\(error)") }
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: true)
        guard let headerLine = lines.first else { throw ParseError(path: path, line: 1, message: "empty file") }
        let header = String(decoding: headerLine, as: UTF8.self).split(separator: ",").map {
            String($0).trimmingSpaces
        }
        var columns: [Int] = []
        for name in ["time_s", "ax", "ay", "az", "gx", "gy", "gz"] {
            guard let index = header.firstIndex(of: name) else {
                throw ParseError(path: path, line: 1, message: "no \(name) column (header: time_s,ax,ay,az,gx,gy,gz)")
            }
            columns.append(index)
        }
        // The magnetometer's columns are optional: all three or none.
        let magnetometerColumns = ["mx", "my", "mz"].compactMap { header.firstIndex(of: $0) }
        if magnetometerColumns.count == 3 { columns += magnetometerColumns }
        var samples: [Sample] = []
        samples.reserveCapacity(lines.count)
        var rejected = 0
        let width = (columns.max() ?? 0) + 1
        var fields = [Double](repeating: .nan, count: width)
        bytes.withUnsafeBufferPointer { all in
            for line in lines.dropFirst() {
                // Fields by byte offsets, numbers parsed in place: an hour at 100 Hz is 360 000 lines.
                for index in fields.indices { fields[index] = .nan }
                var field = 0
                var start = line.startIndex
                var position = line.startIndex
                while position <= line.endIndex && field < width {
                    if position == line.endIndex || all[position] == UInt8(ascii: ",") {
                        fields[field] = IMUFile.decimal(all, start..<position) ?? .nan
                        field += 1
                        start = position + 1
                    }
                    position += 1
                }
                let time = fields[columns[0]]
                let accelerometer = SIMD3(fields[columns[1]], fields[columns[2]], fields[columns[3]])
                let gyroscope = SIMD3(fields[columns[4]], fields[columns[5]], fields[columns[6]])
                guard time.isFinite, (accelerometer * 0).sum() == 0, (gyroscope * 0).sum() == 0 else {
                    rejected += 1
                    continue
                }
                var sample = Sample(time: time, accelerometer: accelerometer, gyroscope: gyroscope)
                if columns.count == 10 {
                    let field = SIMD3(fields[columns[7]], fields[columns[8]], fields[columns[9]])
                    if (field * 0).sum() == 0 { sample.magnetometer = field }
                }
                samples.append(sample)
            }
        }
        var file = IMUFile(samples: samples, rejected: rejected)
        file.settleClock()
        return file
    }

    /// The samples' times read through their glitches as a log's are (``LogClock``): one sample stamped years out
    /// held every sample after it back from the replay (found by fuzzing, 2026-12-01: a tenth of a voyage's heel
    /// and pitch lost, nothing said); a clock set back is taken out, the trace going on in its order.
    mutating func settleClock() {
        var anchors = samples.indices.map { (index: $0, time: samples[$0].time) }
        timeGlitches = LogClock.settle(&anchors, daily: false)
        guard timeGlitches > 0 || anchors.contains(where: { $0.time != samples[$0.index].time }) else { return }
        samples = anchors.map { anchor in
            var sample = samples[anchor.index]
            sample.time = anchor.time
            return sample
        }
    }

    /// One CSV line as a sample, with the columns of time, ax, ay, az, gx, gy, gz (and mx, my, mz when there are
    /// ten); nil when it cannot be read. An empty or unreadable magnetometer leaves the sample without one.
    static func sample(_ line: UnsafeBufferPointer<UInt8>, columns: [Int]) -> Sample? {
        var values = SIMD16<Double>(repeating: .nan)
        var field = 0
        var start = 0
        for position in 0...line.count where position == line.count || line[position] == UInt8(ascii: ",") {
            if let slot = columns.firstIndex(of: field) {
                values[slot] = decimal(line, start..<position) ?? .nan
            }
            field += 1
            start = position + 1
        }
        for index in 0..<7 where !values[index].isFinite { return nil }
        var sample = Sample(
            time: values[0], accelerometer: SIMD3(values[1], values[2], values[3]),
            gyroscope: SIMD3(values[4], values[5], values[6]))
        if columns.count == 10, values[7].isFinite, values[8].isFinite, values[9].isFinite {
            sample.magnetometer = SIMD3(values[7], values[8], values[9])
        }
        return sample
    }

    /// `[+-]digits[.digits][e[+-]digits]`, or nil.
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var position = range.lowerBound
        var end = range.upperBound
        while position < end && (bytes[position] == 0x20 || bytes[position] == 0x09) { position += 1 }
        while end > position && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x0D) { end -= 1 }
        guard position < end else { return nil }
        var negative = false
        if bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
            negative = bytes[position] == UInt8(ascii: "-")
            position += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var seenPoint = false
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[(position + 1)..<end]), as: UTF8.self)
                guard digits > 0, let power = Int(text) else { return nil }
                exponent += power
                break
            } else {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                digits += 1
                if mantissa < 100_000_000_000_000_000 {
                    mantissa = mantissa * 10 + UInt64(digit)
                    if seenPoint { exponent -= 1 }
                } else if !seenPoint {
                    exponent += 1
                }
            }
            position += 1
        }
        guard digits > 0 else { return nil }
        var value = Double(mantissa)
        // One division by an exact power of ten for the usual CSV numbers: correctly rounded.
        if exponent < 0 && exponent >= -22 {
            var scale = 1.0
            for _ in 0..<(-exponent) { scale *= 10 }
            value /= scale
        } else if exponent > 0 {
            for _ in 0..<min(exponent, 400) { value *= 10 }
        } else if exponent < 0 {
            for _ in 0..<min(-exponent, 400) { value /= 10 }
        }
        return negative ? -value : value
    }
}
