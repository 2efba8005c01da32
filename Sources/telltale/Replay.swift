import ArgumentParser
import Gateway
import Platform

/// `telltale replay`: the same engine as `run`, driven by the logs' own clock.
struct Replay: SpecCommand {
    static let configuration = CommandConfiguration(ReplayOptions.spec)

    @Flag(name: .customLong("fast"), help: help("fast")) var fast = false
    @Option(name: .customLong("speed"), help: help("speed")) var speed: Double?
    @Flag(name: .customLong("computed-only"), help: help("computed-only")) var computedOnly = false
    @Flag(name: .customLong("tag-time"), help: help("tag-time")) var tagTime = false
    @Option(name: .customLong("expect"), help: help("expect")) var expect: String?
    @Option(name: .customLong("route"), help: help("route")) var route: String?
    @Option(name: .customLong("imu"), help: help("imu")) var imu: String?
    @Option(name: .customLong("config"), help: help("config")) var config: String?
    @Option(name: .customLong("calibration"), help: help("calibration")) var calibration: String?
    @Option(name: .customLong("signalk"), help: help("signalk")) var signalK: String?
    @Option(name: .customLong("race-start"), help: help("race-start")) var raceStart: Double?
    @Option(name: .customLong("anchor-drop"), help: help("anchor-drop")) var anchorDrop: Double?
    @Option(name: .customLong("forecast"), help: help("forecast")) var forecasts: [String] = []
    @Option(name: .customLong("line-rate"), help: help("line-rate")) var lineRate = 10.0
    @Option(name: .customLong("tick-rate"), help: help("tick-rate")) var tickRate = 10.0
    @Option(name: .customLong("kind"), help: help("kind")) var kinds: [String] = []
    @Argument(help: argumentHelp(0)) var logs: [String] = []

    var options: ReplayOptions {
        var options = ReplayOptions()
        options.logs = logs
        options.fast = fast
        options.speed = speed
        options.computedOnly = computedOnly
        options.tagTime = tagTime
        options.expect = expect
        options.route = route
        options.imu = imu
        options.config = config
        options.calibration = calibration
        options.signalK = signalK
        options.raceStart = raceStart
        options.anchorDrop = anchorDrop
        options.forecasts = forecasts
        options.lineRate = lineRate
        options.tickRate = tickRate
        options.kinds = kinds
        return options
    }

    func run(_ options: ReplayOptions) throws(CommandError) {
        Console.error(try ReplayCommand.perform(options) { POSIX.writeAll(1, $0) } + "\n")
    }
}
