import ArgumentParser
import Gateway
import Marine
import NMEA
import Platform
import Simulator

/// `telltale simulate`: a deterministic voyage for bench tests.
struct Simulate: SpecCommand {
    static let configuration = CommandConfiguration(SimulateOptions.spec)

    @Option(name: .customLong("route"), help: help("route")) var route = ""
    @Option(name: .customLong("output"), help: help("output")) var output = ""
    @Option(name: .customLong("seed"), help: help("seed")) var seed: UInt64 = 1
    @Option(name: .customLong("duration"), help: help("duration")) var duration = 3600.0
    @Option(name: .customLong("wind-direction"), help: help("wind-direction")) var windDirection = 225.0
    @Option(name: .customLong("wind-speed"), help: help("wind-speed")) var windSpeed = 14.0
    @Option(name: .customLong("mast-height"), help: help("mast-height")) var mastHeight = 15.0
    @Option(name: .customLong("awa-error"), help: help("awa-error")) var awaError = 0.0
    @Option(name: .customLong("log-error"), help: help("log-error")) var logError = 1.0
    @Option(name: .customLong("log-side-error"), help: help("log-side-error")) var logSideError = 0.0
    @Option(name: .customLong("aws-error"), help: help("aws-error")) var awsError = 1.0
    @Option(name: .customLong("deviation"), help: help("deviation")) var deviation: String?
    @Option(name: .customLong("upwash-error"), help: help("upwash-error")) var upwashError: String?
    @Option(name: .customLong("gust"), help: help("gust")) var gust = 4.0
    @Option(name: .customLong("shift"), help: help("shift")) var shift = 8.0
    @Option(name: .customLong("roll"), help: help("roll")) var roll = 4.0
    @Flag(name: .customLong("no-attitude-sensor"), help: help("no-attitude-sensor")) var noAttitudeSensor = false
    @Flag(name: .customLong("racing"), help: help("racing")) var racing = false
    @Option(name: .customLong("polar"), help: help("polar")) var polar: String?
    @Option(name: .customLong("start"), help: help("start")) var start: Double?
    @Option(name: .customLong("ship"), help: help("ship")) var ships: [String] = []
    @Option(name: .customLong("anchor-drop"), help: help("anchor-drop")) var anchorDrop: Double?
    @Option(name: .customLong("anchor-drag"), help: help("anchor-drag")) var anchorDrag: Double?
    @Option(name: .customLong("anchor-lie"), help: help("anchor-lie")) var anchorLie: Double?

    var options: SimulateOptions {
        var options = SimulateOptions()
        options.route = route
        options.output = output
        options.seed = seed
        options.duration = duration
        options.windDirection = windDirection
        options.windSpeed = windSpeed
        options.mastHeight = mastHeight
        options.awaError = awaError
        options.logError = logError
        options.logSideError = logSideError
        options.awsError = awsError
        if let deviation { options.deviation = SimulateOptions.terms(deviation) }
        if let upwashError { options.upwashError = SimulateOptions.terms(upwashError) }
        options.gust = gust
        options.shift = shift
        options.roll = roll
        options.noAttitudeSensor = noAttitudeSensor
        options.racing = racing
        options.polar = polar
        options.start = start
        options.ships = ships.compactMap { try? SimulateOptions.ship($0) }
        options.anchorDrop = anchorDrop
        options.anchorDrag = anchorDrag
        if let anchorLie {
            options.anchorLie = anchorLie
            options.anchorLieGiven = true
        }
        return options
    }

    func run(_ options: SimulateOptions) throws(CommandError) {
        do { try simulate(options) } catch let error as CommandError { throw error } catch {
            throw CommandError("\(error)")
        }
    }

    private func simulate(_ options: SimulateOptions) throws {
        let output = options.output
        var file = RouteFile(path: options.route)
        let loaded = try file.load()
        var settings = VoyageSettings()
        settings.seed = options.seed
        settings.duration = options.duration
        settings.windDirection = options.windDirection
        settings.windSpeed = options.windSpeed
        settings.mastHeight = options.mastHeight
        settings.awaError = options.awaError
        settings.logError = options.logError
        settings.logSideError = options.logSideError
        settings.awsError = options.awsError
        settings.deviation = DeviationCurve(options.deviation)
        if options.upwashError.count == 3 {
            settings.upwashError = (options.upwashError[0], options.upwashError[1], options.upwashError[2])
        }
        settings.gustStrength = options.gust
        settings.shiftAmplitude = options.shift
        settings.rollAmplitude = options.roll
        settings.attitudeSensor = !options.noAttitudeSensor
        settings.racing = options.racing
        settings.startSequence = options.start
        settings.ships = options.ships.enumerated().map { index, ship in
            SimulatedShip(
                mmsi: 235_000_001 + UInt32(index), name: index == 0 ? "EVER DIADEM" : "SHIP \(index + 1)",
                closestAt: ship.closestAt, passing: ship.passing, speed: ship.speed, from: ship.from)
        }
        if options.anchorDrop != nil || options.anchorDrag != nil || options.anchorLieGiven {
            settings.anchorage = VoyageSettings.Anchorage(
                dropAt: options.anchorDrop ?? 0, lie: options.anchorLie, dragAfter: options.anchorDrag)
        }
        try POSIX.makeDirectory(output)
        if let polar = options.polar {
            settings.polar = try PolarFile.load(polar)
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
        var anchorDown: Double?
        var failure: POSIX.Failure?
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
                if anchorDown == nil && row.anchor != nil { anchorDown = row.time - settings.startTime }
                truthBuffer.append(contentsOf: Array((row.csvLine + "\n").utf8))
                drain(&truthBuffer, truth)
            })
        try log.write(logBuffer)
        try imu.write(imuBuffer)
        try truth.write(truthBuffer)
        if let failure { throw failure }
        Console.error("simulate: \(sentences) sentences written to \(output)/voyage.nmea\n")
        if let anchorDown {
            Console.error(
                "simulate: the anchor went down \(FixedDecimal.text(anchorDown, decimals: 1)) s into the voyage\n")
        }
    }
}
