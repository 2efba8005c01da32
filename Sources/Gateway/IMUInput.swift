import Marine

/// Where IMU samples come from in `telltale run`: for now a CSV played in real time (the bench profile's demo
/// voyage); I²C and IIO drivers come with the motion-sensing work.
public struct IMUConfiguration: Sendable {
    public var endpoint: String
    public var path: String
    public var loop = false
    public var speed = 1.0
    /// Chip axes to body axes (x forward, y starboard, z down).
    public var axes = AxisMap.identity

    public init(endpoint: String, path: String) {
        self.endpoint = endpoint
        self.path = path
    }

    /// `csv:///path.csv` or `csv:relative.csv` (relative to `base`).
    public static func parse(_ url: String, base: String) -> IMUConfiguration? {
        guard url.hasPrefix("csv:") else { return nil }
        var rest = String(url.dropFirst(4))
        if rest.hasPrefix("//") { rest.removeFirst(2) }
        guard !rest.isEmpty else { return nil }
        return IMUConfiguration(endpoint: url, path: rest.hasPrefix("/") ? rest : base + "/" + rest)
    }
}

/// An IMU CSV played on its own clock, like ``FileInput`` plays a log.
struct CSVIMUInput {
    private let samples: [IMUFile.Sample]
    private let offsets: [Double]
    private let span: Double
    private let configuration: IMUConfiguration
    private var next = 0
    private(set) var lap = 0

    init(configuration: IMUConfiguration) throws(IMUFile.ParseError) {
        self.configuration = configuration
        samples = try IMUFile.read(configuration.path).samples
        let first = samples.first?.time ?? 0
        offsets = samples.map { $0.time - first }
        let mean = offsets.count > 1 ? (offsets.last ?? 0) / Double(offsets.count - 1) : 0.01
        span = (offsets.last ?? 0) + mean
    }

    func nextDue(since start: Double) -> Double? {
        guard next < samples.count else { return nil }
        return start + (Double(lap) * span + offsets[next]) / configuration.speed
    }

    /// Hands over every sample due by `now`, remapped to the body frame, with its original UNIX time.
    mutating func emitDue(at now: Double, since start: Double, _ body: (IMUFile.Sample) -> Void) {
        while let due = nextDue(since: start), due <= now {
            var sample = samples[next]
            sample.accelerometer = configuration.axes.apply(sample.accelerometer)
            sample.gyroscope = configuration.axes.apply(sample.gyroscope)
            body(sample)
            next += 1
            if next == samples.count && configuration.loop && span > 0 {
                next = 0
                lap += 1
            }
        }
    }
}
