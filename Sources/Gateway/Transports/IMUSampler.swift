import Engine
import Platform
import Router
import Sensors

/// Samples of the configured IMU for a while, outside the runtime (`telltale imu`, `telltale calibrate level`): a
/// CSV from its start as fast as it reads, a live IMU in real time. Body frame (axis map and mounting applied).
public final class IMUSampler {
    private let configuration: IMUConfiguration
    private let log: Log
    private let wrap: ((any I2CBus) -> any I2CBus)?

    public init(
        configuration: IMUConfiguration, log: @escaping (String) -> Void, wrap: ((any I2CBus) -> any I2CBus)? = nil
    ) {
        self.configuration = configuration
        self.log = Log { log($0.line) }
        self.wrap = wrap
    }

    /// Hands over the samples of `seconds` (of the file's time for a CSV); `stop` ends it early.
    public func run(
        seconds: Double, stop: () -> Bool = { false }, _ body: (IMUFile.Sample) -> Void
    ) throws(IMUFile.ParseError) {
        if case .csv(let path) = configuration.source {
            let file = try IMUFile.read(path)
            guard let first = file.samples.first?.time else { return }
            for sample in file.samples {
                guard sample.time - first < seconds, !stop() else { break }
                body(configuration.bodyFrame(sample))
            }
            return
        }
        let input = LiveIMUInput(configuration: configuration, log: log, wrap: wrap)
        var first: Double?
        // The device gets 2 s beyond the asked-for time to open and deliver its first sample (a missing bus fails
        // at once and is retried each second, each failure logged); then the samples run for `seconds`.
        let start = POSIX.monotonic()
        var done = false
        while !done && !stop() && !StopSignal.isRaised {
            let now = POSIX.monotonic()
            guard now < start + seconds + 2 || (first != nil && now < start + 2 * seconds + 2) else { break }
            input.read(now: now) { sample in
                if first == nil { first = sample.time }
                if let first, sample.time - first >= seconds {
                    done = true
                    return
                }
                body(sample)
            }
            POSIX.sleep(until: min(input.nextDue(now: now) ?? now, now + 0.1))
        }
    }
}
