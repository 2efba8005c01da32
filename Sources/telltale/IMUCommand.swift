import ArgumentParser
import Gateway
import Platform

/// `telltale imu`: the IMU's samples in the body frame, to check wiring, axes and calibration.
struct IMUCommand: SpecCommand {
    static let configuration = CommandConfiguration(IMUOptions.spec)

    @Option(name: .customLong("config"), help: help("config")) var config: String?
    @Option(name: .customLong("imu"), help: help("imu")) var imu: String?
    @Option(name: .customLong("seconds"), help: help("seconds")) var seconds = 5.0
    @Option(name: .customLong("transcript"), help: help("transcript")) var transcript: String?

    var options: IMUOptions {
        var options = IMUOptions()
        options.config = config
        options.imu = imu
        options.seconds = seconds
        options.transcript = transcript
        return options
    }

    func run(_ options: IMUOptions) throws(CommandError) {
        try IMUCommands.sample(options, out: { Console.out($0) }, log: { Console.error("telltale: " + $0 + "\n") })
    }
}
