import Engine
import Platform

/// `telltale replay` as both builds run it: to the configuration's outputs when it names any (a bench rig feeding a
/// chartplotter), else to standard output, compared with a golden file when `--expect` names one.
extension ReplayCommand {
    /// Replays as `options` say, writing to `out`; the lines for standard error (the summary, and what differs from
    /// the golden file). Throws when the replay cannot run or its output is not the golden file's.
    public static func perform(_ options: ReplayOptions, out: (UnsafeRawBufferPointer) -> Void) throws(CommandError)
        -> String
    {
        try options.validate()
        if let config = options.config, let file = try? ConfigurationFile.load(path: config), !file.outputs.isEmpty {
            try replayToOutputs(options, file)
            return "replay: played to the outputs of \(config)"
        }
        guard let expect = options.expect else { return try run(options, write: out) }
        var captured: [UInt8] = []
        let summary = try run(options) { captured.append(contentsOf: $0) }
        let golden: [UInt8]
        do { golden = try POSIX.readFile(expect) } catch { throw CommandError("\(error)") }
        let differences = GoldenComparison.differences(expected: golden, actual: captured)
        guard differences.isEmpty else {
            var text = summary
            for difference in differences {
                text += "\nline \(difference.line):\n  expected: \(difference.expected ?? "(nothing)")"
                text += "\n  actual:   \(difference.actual ?? "(nothing)")"
            }
            throw CommandError(text)
        }
        return summary + "\nreplay: output matches \(expect)"
    }

    /// The logs played to the configuration's outputs through the same runtime as `run`, on their own clock at
    /// --speed (--fast is 1000x), until they end.
    static func replayToOutputs(_ options: ReplayOptions, _ file: GatewayConfiguration) throws(CommandError) {
        var configuration = file
        let speed = options.pace ?? 1000
        configuration.inputs = options.logs.enumerated().map { index, path in
            var input = InputConfiguration(name: "log\(index + 1)", endpoint: .file(path: path))
            input.speed = speed
            return input
        }
        if let route = options.route { configuration.route = route }
        if let refusal = Self.refusal(options, of: configuration) { throw refusal }
        // --calibration over the configuration's (until 2026-11-30 it was left out here).
        if let calibration = try Self.calibration(options) {
            configuration.engine.wind.calibration = calibration
            configuration.calibrationFile = options.calibration
            configuration.calibrationUnreadable = nil
        }
        if let imu = options.imu {
            guard var parsed = try? IMUConfiguration.parse("csv:" + imu, base: ".") else {
                throw CommandError("--imu: a CSV file", status: 64)
            }
            parsed.speed = speed
            configuration.imu = parsed
        }
        configuration.engine.kinds = configuration.requiredKinds
        StopSignal.install()
        let runtime: Runtime
        do {
            runtime = try Runtime(configuration: configuration, log: StandardErrorLog.make())
        } catch {
            throw CommandError("\(error)")
        }
        runtime.run(untilInputsEnd: true)
    }
}
