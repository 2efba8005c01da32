import ArgumentParser
import Gateway
import Marine
import NMEA
import Simulator

/// `telltale simulate`: a deterministic voyage for bench tests.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sail a GPX route in a simulated wind, current and sea; write the instrument log, IMU and truth.",
        discussion: """
            Writes OUTPUT/voyage.nmea (RMC, GGA, VTG 1 Hz; HDG 10 Hz; VHW 2 Hz; MWV R 5 Hz from a masthead unit that
            moves and heels with the boat; DPT 1 Hz; XDR ROLL/PTCH 5 Hz), OUTPUT/imu.csv (100 Hz) and
            OUTPUT/truth.csv (2 Hz), and the boat's polar (OUTPUT/polar.csv, unless --polar names one). The same seed
            and settings give the same bytes.
            """
    )

    @Option(help: "The route to sail (GPX).")
    var route: String

    @Option(help: "Directory to write to (created if missing).")
    var output: String

    @Option(help: "Seed of the voyage.")
    var seed: UInt64 = 1

    @Option(help: "Longest voyage in seconds (it ends 30 s after the last waypoint).")
    var duration = 3600.0

    @Option(help: "Wind over ground: direction it comes from (degrees true).")
    var windDirection = 225.0

    @Option(help: "Wind over ground: speed in knots.")
    var windSpeed = 14.0

    @Option(help: "Masthead unit height above the centre of rotation, metres (0: no mast motion).")
    var mastHeight = 15.0

    @Option(help: "Wave roll amplitude, degrees.")
    var roll = 4.0

    @Flag(help: "Leave the attitude sensor's XDR out of the log.")
    var noAttitudeSensor = false

    @Option(help: "The boat's polar (table or Expedition layout, or ORC JSON); the built-in one if not given.")
    var polar: String?

    @Option(
        help: """
            Seconds of start sequence: the boat starts behind a line across the first leg (OUTPUT/line.gpx) and \
            times its run to cross it at the gun.
            """
    )
    var start: Double?

    func run() throws {
        var file = RouteFile(path: route)
        let loaded: Route
        do { loaded = try file.load() } catch {
            Console.error("telltale: \(error)\n")
            throw ExitCode.failure
        }
        var settings = VoyageSettings()
        settings.seed = seed
        settings.duration = duration
        settings.windDirection = windDirection
        settings.windSpeed = windSpeed
        settings.mastHeight = mastHeight
        settings.rollAmplitude = roll
        settings.attitudeSensor = !noAttitudeSensor
        settings.startSequence = start
        _ = mkdir(output, 0o755)
        if let polar {
            do { settings.polar = try PolarFile.load(polar) } catch {
                Console.error("telltale: \(error)\n")
                throw ExitCode.failure
            }
        } else {
            try OutputFile(path: output + "/polar.csv").write(Array(VoyageSettings.builtInPolarText.utf8))
        }
        let log = try OutputFile(path: output + "/voyage.nmea")
        let imu = try OutputFile(path: output + "/imu.csv")
        let truth = try OutputFile(path: output + "/truth.csv")
        var logBuffer: [UInt8] = []
        var imuBuffer: [UInt8] = Array((IMUSample.csvHeader + "\n").utf8)
        var truthBuffer: [UInt8] = Array((TruthRow.csvHeader + "\n").utf8)
        var sentences = 0
        var failure: OutputFile.WriteError?
        func drain(_ buffer: inout [UInt8], _ file: borrowing OutputFile) {
            guard buffer.count >= 1 << 16 else { return }
            do { try file.write(buffer) } catch { failure = error }
            buffer.removeAll(keepingCapacity: true)
        }
        let simulator = VoyageSimulator(route: loaded, settings: settings)
        if let line = simulator.startLine {
            func point(_ name: String, _ at: GeoPoint) -> String {
                "<wpt lat=\"\(FixedDecimal.text(at.latitude, decimals: 7))\" "
                    + "lon=\"\(FixedDecimal.text(at.longitude, decimals: 7))\"><name>\(name)</name></wpt>\n"
            }
            let gpx =
                "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"telltale simulate\">\n"
                + point("pin", line.port) + point("committee", line.starboard) + "</gpx>\n"
            try OutputFile(path: output + "/line.gpx").write(Array(gpx.utf8))
        }
        simulator.run(
            sentence: { _, sentence in
                sentence.appendWire(to: &logBuffer)
                sentences += 1
                drain(&logBuffer, log)
            },
            imu: { sample in
                imuBuffer.append(contentsOf: Array((sample.csvLine + "\n").utf8))
                drain(&imuBuffer, imu)
            },
            truth: { row in
                truthBuffer.append(contentsOf: Array((row.csvLine + "\n").utf8))
                drain(&truthBuffer, truth)
            })
        try log.write(logBuffer)
        try imu.write(imuBuffer)
        try truth.write(truthBuffer)
        if let failure { throw failure }
        Console.error("simulate: \(sentences) sentences written to \(output)/voyage.nmea\n")
    }
}

#if canImport(Glibc)
    import Glibc
#endif
