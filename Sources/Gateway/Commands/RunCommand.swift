import Engine
import Fleet
import Marine
import Platform

extension GatewayConfiguration {
    /// The IMU given on the command line, in place of the configuration's; the board's axis map still applies.
    public mutating func useIMU(_ url: String) throws(CommandError) {
        do {
            var parsed = try IMUConfiguration.parse(url, base: ".")
            if let axes = imu?.axes { parsed.axes = axes }
            imu = parsed
        } catch {
            throw CommandError("--imu: \(error)")
        }
    }
}

/// `telltale run` and `telltale check-config` without their command-line library.
public enum RunCommand {
    /// The configuration `run` uses: the file, then the flags added to it; `stdout:` when no output is named.
    public static func configuration(_ options: RunOptions) throws(CommandError) -> GatewayConfiguration {
        var configuration = GatewayConfiguration()
        if let config = options.config {
            do {
                configuration = try ConfigurationFile.load(path: config)
            } catch {
                throw CommandError("\(config): \(error)")
            }
        }
        for (index, url) in options.inputs.enumerated() {
            do {
                configuration.inputs.append(
                    InputConfiguration(name: "flag-input\(index + 1)", endpoint: try Endpoint.parse(url)))
            } catch {
                throw CommandError("--input \(error)")
            }
        }
        for (index, url) in options.outputs.enumerated() {
            do {
                configuration.outputs.append(
                    OutputConfiguration(name: "flag-output\(index + 1)", endpoint: try Endpoint.parse(url)))
            } catch {
                throw CommandError("--output \(error)")
            }
        }
        if let imu = options.imu { try configuration.useIMU(imu) }
        configuration.settingsPaths.configuration = options.config
        if configuration.outputs.isEmpty {
            configuration.outputs.append(OutputConfiguration(name: "stdout", endpoint: .standardOutput))
        }
        configuration.engine.kinds = configuration.requiredKinds
        return configuration
    }

    /// `run`: the gateway on the configuration `options` name, until stopped or `duration` passes. A configuration
    /// saved from the settings page (or SIGHUP) starts it again on the file; one that will not start (a port taken,
    /// a device refused) is put back to the one before, and the gateway starts again on that. `stop` ends this run
    /// alone (a test's gateway), as SIGTERM ends the process's.
    public static func run(
        _ options: RunOptions, stop: StopRequest? = nil, log: @escaping (LogEvent) -> Void
    ) throws(CommandError) {
        StopSignal.install()
        var configuration = try Self.configuration(options)
        var restarted = false
        while true {
            let runtime: Runtime
            do {
                runtime = try Runtime(configuration: configuration, log: log)
            } catch {
                guard restarted, let path = options.config, GatewaySettings.restorePrevious(path) else {
                    throw CommandError("\(error)")
                }
                log(
                    LogEvent(
                        .error, "settings.refused",
                        "settings: the new configuration did not start (\(error)); back to the one before it "
                            + "(the new one is kept as \(path).refused)", [("path", path)], throttled: false))
                restarted = false
                configuration = try Self.configuration(options)
                continue
            }
            runtime.run(duration: options.duration, stop: stop)
            guard runtime.restartRequested, !StopSignal.isRaised, stop?.isRaised != true else { return }
            do throws(CommandError) {
                configuration = try Self.configuration(options)
                restarted = true
            } catch {
                log(
                    LogEvent(
                        .error, "settings.reload",
                        "reload: the configuration file was not taken (\(error)); carrying on with the one running",
                        [], throttled: false))
            }
        }
    }

    /// Installs the stop signals, opens every input and output and runs until stopped or `duration` passes.
    public static func start(
        _ configuration: GatewayConfiguration, duration: Double?, log: @escaping (LogEvent) -> Void
    ) throws(CommandError) {
        StopSignal.install()
        let runtime: Runtime
        do {
            runtime = try Runtime(configuration: configuration, log: log)
        } catch {
            throw CommandError("\(error)")
        }
        runtime.run(duration: duration)
    }

    /// `check-config`: the summary to print, or every error. Beyond the file itself, the files it names are read
    /// as `run` reads them: a route, a polar, a start line or a calibration `run` could not load (it carries on
    /// without them, with a warning in its log) is an error here, where the sailor can still mend it, with its own
    /// exit status (`CommandError.runsWithoutFiles`, 3); a configuration `run` refuses exits 1.
    public static func check(_ path: String) throws(CommandError) -> String {
        let configuration: GatewayConfiguration
        do {
            configuration = try ConfigurationFile.load(path: path)
        } catch {
            throw CommandError("\(path): \(error)")
        }
        return try check(configuration, named: path)
    }

    /// `check-config` on a configuration's text (the settings page's), paths in it relative to `base`. A file in
    /// `goneWithout` (one the gateway runs without now: a calibration or a polar it could not read, a route or a start
    /// line on a boot partition that is late) that still cannot be read is said, not refused: the gateway carries on
    /// without it as now, and the sailor changing the Wi-Fi need not mend it first.
    public static func check(
        text: String, base: String, named name: String, goneWithout: Set<String> = []
    ) throws(CommandError) -> String {
        let configuration: GatewayConfiguration
        do {
            configuration = try ConfigurationFile.parse(text, base: base)
        } catch {
            throw CommandError("\(name): \(error)")
        }
        return try check(configuration, named: name, goneWithout: goneWithout)
    }

    /// What `check-config` says of a parsed configuration: the files it names read as `run` reads them.
    static func check(
        _ configuration: GatewayConfiguration, named path: String, goneWithout: Set<String> = []
    ) throws(CommandError) -> String {
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)" + (n == 1 ? "" : "s") }
        var parts = [count(configuration.inputs.count, "input"), count(configuration.outputs.count, "output")]
        var problems: [String] = []
        var still = ""
        func unreadable(_ file: String?, _ problem: String, as now: String) {
            if let file, goneWithout.contains(file) {
                still += "; still \(now), as now: \(problem)"
            } else {
                problems.append(problem)
            }
        }
        if let calibration = configuration.calibrationUnreadable {
            unreadable(configuration.calibrationFile, "[calibration] \(calibration)", as: "uncalibrated")
        }
        if let route = configuration.route {
            var file = RouteFile(path: route)
            do {
                let loaded = try file.load()
                parts.append("route \(route) (\(count(loaded.waypoints.count, "waypoint")))")
            } catch {
                unreadable(route, "route: \(error)", as: "without the route")
            }
        }
        if let imu = configuration.imu { parts.append("IMU \(imu.endpoint), axes \(imu.axes)") }
        if let polar = configuration.polarUnreadable {
            unreadable(configuration.polarPath, polar, as: "without the polar")
        } else if let polar = configuration.engine.polar {
            parts.append("polar of \(count(polar.curves.count, "wind speed"))")
        }
        if let line = configuration.race.line {
            do {
                let ends = try StartLineFile.load(line)
                let metres =
                    ends.port.flatMap { port in
                        ends.starboard.map { Geodesic.wgs84.inverse(port, $0).distance }
                    } ?? 0
                parts.append("start line \(line) (\(Int(metres.rounded())) m)")
            } catch {
                unreadable(line, error.description, as: "without the start line")
            }
        }
        if let button = configuration.race.button { parts.append("race button \(button.chip) line \(button.line)") }
        if let web = configuration.web {
            parts.append("Signal K and the panel on \(Endpoint.bracketed(web.host)):\(web.port)")
        }
        if let uplink = configuration.uplink {
            parts.append(
                "uplink as \(uplink.boat) to \(uplink.tls ? "mqtts" : "mqtt")://\(Endpoint.bracketed(uplink.host)):"
                    + "\(uplink.port)")
        }
        guard problems.isEmpty else {
            throw CommandError(
                problems.map { "\(path): \($0)" }.joined(separator: "\n"), status: CommandError.runsWithoutFiles)
        }
        return "\(path): valid (" + parts.joined(separator: ", ") + ")" + still
    }
}

extension RunCommand {
    /// The configuration `record` runs: the inputs, the recorder on, no output, nothing computed.
    public static func recording(_ options: RecordOptions) throws(CommandError) -> GatewayConfiguration {
        guard !options.inputs.isEmpty else { throw CommandError("record needs at least one --input") }
        guard !options.directory.isEmpty else { throw CommandError("record needs --directory") }
        var configuration = GatewayConfiguration()
        for (index, url) in options.inputs.enumerated() {
            do {
                configuration.inputs.append(
                    InputConfiguration(name: "input\(index + 1)", endpoint: try Endpoint.parse(url)))
            } catch {
                throw CommandError("--input \(error)")
            }
        }
        var settings = Recorder.Settings(directory: options.directory)
        settings.rotateBytes = ByteSize.of(megabytes: options.rotateSizeMegabytes)
        settings.rotateSeconds = options.rotateMinutes * 60
        configuration.record = settings
        configuration.engine.kinds = []
        return configuration
    }
}
