import ArgumentParser
import Marine
import Simulator

extension Bench {
    /// `telltale-bench attitude`: the attitude filter's accuracy on a synthetic seaway, and its speed.
    struct AttitudeAccuracy: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "attitude",
            abstract: "Heel and pitch accuracy of the attitude filter on a sea-state trace, and the cost of an update.")

        @Option(help: "Write the trace (CSV with the true heel and pitch) to this file, for other filters to run on.")
        var trace: String?

        @Option(help: "Seconds of trace.")
        var duration = 300.0

        @Option(help: "Seed of the trace.")
        var seed: UInt64 = 1

        @Option(help: "Seconds at the start left out of the error (the filter's start-up).")
        var settle = 30.0

        func run() throws {
            var generator = SeaStateTrace()
            generator.duration = duration
            generator.seed = seed
            var samples: [SeaStateTrace.Sample] = []
            generator.run { samples.append($0) }
            if let trace {
                let file = try OutputFile(path: trace)
                var text = SeaStateTrace.csvHeader + "\n"
                for sample in samples {
                    text +=
                        sample.imu.csvLine + "," + format(sample.heel, decimals: 4) + ","
                        + format(sample.pitch, decimals: 4) + "\n"
                }
                try file.write(Array(text.utf8))
            }
            var filter = AttitudeFilter()
            var heelSquares = 0.0
            var pitchSquares = 0.0
            var headingSquares = 0.0
            var counted = 0
            var previous: Double?
            let start = monotonicSeconds()
            for sample in samples {
                let imu = sample.imu
                let dt = previous.map { imu.time - $0 } ?? 0.01
                previous = imu.time
                filter.update(
                    gyroscope: SIMD3(imu.gyroscope.x, imu.gyroscope.y, imu.gyroscope.z),
                    accelerometer: SIMD3(imu.accelerometer.x, imu.accelerometer.y, imu.accelerometer.z), dt: dt)
                if imu.time >= settle {
                    heelSquares += (filter.heel - sample.heel) * (filter.heel - sample.heel)
                    pitchSquares += (filter.pitch - sample.pitch) * (filter.pitch - sample.pitch)
                    let heading = MagneticHeading.heading(levelField: filter.levelled(sample.magnetometer)) ?? .nan
                    let error = Angle.relative(heading - sample.heading)
                    headingSquares += error * error
                    counted += 1
                }
            }
            let nanoseconds = (monotonicSeconds() - start) / Double(samples.count) * 1e9
            let heel = (heelSquares / Double(max(counted, 1))).squareRoot()
            let pitch = (pitchSquares / Double(max(counted, 1))).squareRoot()
            let heading = (headingSquares / Double(max(counted, 1))).squareRoot()
            Console.out(
                "telltale: RMS heel error \(format(heel, decimals: 3)) deg, pitch \(format(pitch, decimals: 3)) deg "
                    + "after \(Int(settle)) s; \(format(nanoseconds, decimals: 0)) ns per update; "
                    + "magnetometer heading RMS \(format(heading, decimals: 2)) deg at \(Int(generator.fieldDip)) deg dip\n"
            )
        }
    }
}
