/// IMU samples from the CSV format `telltale simulate` writes and `telltale record` will: a header
/// `time_s,ax,ay,az,gx,gy,gz` (optionally `,mx,my,mz`); time in UNIX seconds; body frame x forward, y starboard,
/// z down; specific force in m/s²; rates in degrees per second. Columns are found by name.
public struct IMUFile: Sendable {
    public struct Sample: Sendable {
        public var time: Double
        public var accelerometer: SIMD3<Double>
        public var gyroscope: SIMD3<Double>

        public init(time: Double, accelerometer: SIMD3<Double>, gyroscope: SIMD3<Double>) {
            self.time = time
            self.accelerometer = accelerometer
            self.gyroscope = gyroscope
        }
    }

    public struct ParseError: Error, CustomStringConvertible {
        public var path: String
        public var line: Int
        public var message: String
        public var description: String { "\(path): line \(line): \(message)" }
    }

    public var samples: [Sample]
    /// Lines that could not be read (counted, skipped).
    public var rejected: Int

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
        let wanted = ["time_s", "ax", "ay", "az", "gx", "gy", "gz"]
        var columns: [Int] = []
        for name in wanted {
            guard let index = header.firstIndex(of: name) else {
                throw ParseError(path: path, line: 1, message: "no \(name) column (header: time_s,ax,ay,az,gx,gy,gz)")
            }
            columns.append(index)
        }
        var samples: [Sample] = []
        samples.reserveCapacity(lines.count)
        var rejected = 0
        for line in lines.dropFirst() {
            let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            let values = columns.map { $0 < fields.count ? Double(String(decoding: fields[$0], as: UTF8.self)) : nil }
            guard values.allSatisfy({ $0 != nil && $0!.isFinite }) else {
                rejected += 1
                continue
            }
            let v = values.map { $0! }
            samples.append(
                Sample(time: v[0], accelerometer: SIMD3(v[1], v[2], v[3]), gyroscope: SIMD3(v[4], v[5], v[6])))
        }
        return IMUFile(samples: samples, rejected: rejected)
    }
}
