import Engine
import Fleet
import Marine
import NMEA
import Platform
import Router

/// One input: where it reads and how strictly.
public struct InputConfiguration: Sendable {
    public var name: String
    public var endpoint: Endpoint
    /// File inputs: start again at the end (the bench profile replays the demo voyage for ever).
    public var loop = false
    /// File inputs: log seconds per wall-clock second.
    public var speed = 1.0
    public var framing = FramerConfiguration()

    public init(name: String, endpoint: Endpoint) {
        self.name = name
        self.endpoint = endpoint
    }
}

/// One output: where it writes and what it carries.
public struct OutputConfiguration: Sendable {
    public var name: String
    public var endpoint: Endpoint
    /// Carry the engine's computed sentences.
    public var computed = true
    /// Carry the inputs' sentences, passed through (never back to the input they came from).
    public var passThrough = true
    /// Address patterns (`*MWV`, `GP*`, `IIXDR`) a sentence must match; empty means all.
    public var include: [String] = []
    /// Address patterns that are never sent.
    public var exclude: [String] = []
    /// The computed kinds carried; nil means the engine's standard set.
    public var kinds: Set<ComputedKind>?
    /// Talker written on computed sentences for this output (nil: the engine's).
    public var talker: Talker?
    /// Carry wind made from the forecast (`forecast_wind`; ``OutputPolicy/forecastWind``).
    public var forecastWind = true
    /// Per address pattern, the least seconds between two sentences of one address (`*MWV` at most once a second).
    public var rateLimits: [(pattern: String, interval: Double)] = []
    /// Heel and pitch XDR for this output: transducer names (instead of `ROLL`/`PTCH`, or `HEEL`/`TRIM` for the
    /// attitude-heel-trim kind) and decimals (instead of `[attitude] decimals`).
    public var attitudeNames: (String, String)?
    public var attitudeDecimals: Int?
    /// `nmea_version`: the form of sentences with an FAA mode field (APB in 14 fields by default, for OpenCPN).
    public var dialect = NMEADialect.compatible
    /// An NMEA 0183 autopilot listens on this output (`autopilot`): listed in the Autopilot API with what such a pilot
    /// can be asked through the sentences it is sent (the route's next point), and nothing more.
    public var autopilot = false
    /// TCP servers: most clients at once, and bytes queued for one client before its sentences are dropped.
    public var maximumClients = 16
    public var clientBuffer = 64 * 1024

    public init(name: String, endpoint: Endpoint) {
        self.name = name
        self.endpoint = endpoint
    }

    /// Whether a sentence with this address may go out here.
    public func admits(_ address: Address) -> Bool {
        AddressFilter(include: include, exclude: exclude).admits(address)
    }
}

/// Everything `telltale run` is told: engine settings, route, inputs, outputs.
public struct GatewayConfiguration: Sendable {
    public var board: String?
    public var engine = EngineConfiguration()
    /// Engine ticks per second (1–50).
    public var tickRate = 10.0
    /// A GPX route file, reloaded when it changes.
    public var route: String?
    /// A one-line live status on the terminal (only when standard error is one).
    public var statusLine = true
    /// The systemd notification socket and watchdog period (µs), when not taken from the environment (tests).
    public var systemdNotify: (socket: String, watchdogUsec: Double?)?
    /// Seconds between summaries in the log (per input and output: sentences, rejects, drops, reconnects); nil: none.
    public var summaryInterval: Double? = 300
    /// Record every input sentence (the black box), when set.
    public var record: Recorder.Settings?
    /// The IMU, when there is one.
    public var imu: IMUConfiguration?
    /// What `telltale calibrate level` learnt (mounting tilt, gyro bias); nil: none is read.
    public var stateFile: String? = StateFile.defaultPath
    public var inputs: [InputConfiguration] = []
    /// The Signal K server and the instrument panel; nil when off.
    public var web: WebConfiguration?
    /// `[race]`: the start timer's sequence and what of it is spoken.
    public var race = RaceConfiguration()
    /// `[history]`: the boat's history kept on the card beside the state file.
    public var history = HistoryConfiguration()
    /// `[voice]`: announcements spoken through a command (espeak-ng); nil says nothing.
    public var voice: VoiceConfiguration?
    /// `[autopilot]`: pypilot.
    public var autopilot = AutopilotConfiguration()
    /// `[chart]`: the charts folder and the online layers the panel's chart offers.
    public var chart = ChartConfiguration()
    /// `[weather]`: the GRIB forecasts watched and imported, and whether forecast wind stands in for an anemometer.
    public var weather = WeatherConfiguration()
    /// `[tides]`: the harmonics files and the stations that speak for the boat.
    public var tides = TideConfiguration()
    /// The calibration learnt from sailing (`[calibration] file`), applied as `engine.wind.calibration`.
    public var calibrationFile: String?
    /// What the reader said of `calibrationFile` when it could not be read (broken by hand or by the card): the
    /// gateway runs uncalibrated and says so, `check-config` and `replay` refuse it.
    public var calibrationUnreadable: String?
    /// `[calibration] auto = true`: learnt from the history every `auto_hours` and applied when sure (nil: off).
    public var calibrationAuto: AutoCalibration?
    /// `[routing]`: the weather router on board.
    public var routing = RoutingConfiguration()
    /// The polar file's path (top-level `polar`), for the router's own process; nil without one.
    public var polarPath: String?
    /// What the reader said of `polarPath` when it could not be read (not there yet, on a boot partition that is
    /// late; broken by hand or by the card), with its line: the gateway runs without targets and says so,
    /// `check-config` names it (exit status 3) and `replay` refuses it.
    public var polarUnreadable: String?
    /// `[uplink]`: the fleet uplink to a shore MQTT broker; nil when off.
    public var uplink: UplinkConfiguration?
    /// `[n2k]`: the NMEA 2000 bus Telltale is a node on; nil when off.
    public var n2k: N2KConfiguration?
    public var outputs: [OutputConfiguration] = []
    /// Where the settings page finds the configuration file and the image's network notes (set by `run`).
    public var settingsPaths = GatewaySettings.Paths()

    public init() {}

    /// The kinds the engine must build: what any output asks for.
    public var requiredKinds: Set<ComputedKind> {
        var kinds: Set<ComputedKind> = []
        for output in outputs where output.computed { kinds.formUnion(self.kinds(of: output)) }
        return kinds
    }

    /// The computed kinds `output` carries: what it names, else the standard set, and with a gpsd input also the
    /// fix as RMC, GGA and VTG (gpsd's position reaches NMEA outputs only that way: nothing passes it through).
    public func kinds(of output: OutputConfiguration) -> Set<ComputedKind> {
        if let kinds = output.kinds { return kinds }
        let hasGPSD = inputs.contains { if case .gpsd = $0.endpoint { true } else { false } }
        return hasGPSD
            ? ComputedKind.standard.union([.positionRMC, .positionGGA, .positionVTG]) : ComputedKind.standard
    }
}

/// `[web]`: the Signal K server (HTTP and WebSocket) and the instrument panel it serves.
public struct WebConfiguration: Sendable {
    public var host = "0.0.0.0"
    /// Signal K's usual port.
    public var port = 3000
    /// Who may change things without an approved device's token: CIDR networks, `loopback`, `local` (the subnets of
    /// this machine's interfaces). By default this machine alone (its command line); a phone asks for access.
    public var putNetworks = ["loopback"]
    /// The boat's name in the model.
    public var name: String?
    /// The boat's Signal K identity; by default one made from the machine's identity (`/etc/machine-id`).
    public var urn: String?
    /// Updates a second of the values the engine derives (passed-through values go out as they arrive).
    public var updateRate = 2.0
    /// Most clients at once (HTTP and stream); three in four of them may be streams.
    public var maximumClients = 32
    /// Most clients from one address (one device cannot take every slot); three in four of them may be streams.
    public var maximumPerAddress = 16
    /// Sources by Signal K path, most preferred first (`[web.source_priority]`): which one value a path shows.
    public var sourcePriority: [String: [String]] = [:]
    /// Bytes queued for one client before it is dropped as not reading.
    public var clientBuffer = 256 * 1024
    /// The panel's folder; nil: the package's (`/usr/share/telltale/panel`), else the working tree's `Sources/Panel/`.
    public var panel: String?

    public init() {}
}

/// `[chart]`.
public struct ChartConfiguration: Sendable, Equatable {
    /// A folder of raster MBTiles files, each served at `/charts/<name>/{z}/{x}/{y}`; nil: none.
    public var folder: String? = "/var/lib/telltale/charts"
    /// The online base layer and seamark overlay a phone with internet may switch on (`{z}/{x}/{y}` templates).
    public var baseLayer: String? = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    public var seamarks: String? = "https://tiles.openseamap.org/seamark/{z}/{x}/{y}.png"
    /// The offline base map's folder (`telltale basemap`); nil: the package's, else the working tree's
    /// `.build/basemap`; "": none.
    public var baseMap: String?
    /// The layout a phone opens on before it has chosen one (`[panel] start`: "chart", "sailing", ...).
    public var panelStart: String?
    /// Metres either side of the leg the chart draws as the XTE corridor (the XTE alarm's limit), and the
    /// collision alarm's distance (targets within it drawn in red).
    public var crossTrackLimit: Double?
    public var collisionDistance: Double?

    public init() {}
}

/// `[weather]`.
public struct WeatherConfiguration: Sendable, Equatable {
    /// A GRIB file, or a folder of them, imported at start and again whenever one changes; nil: none watched.
    public var grib: String?
    /// Where the imported grids live; nil: `weather/` beside the state file (``folder(stateFile:)``).
    public var folder: String?
    /// Seconds between looks at the GRIB files and the grid folder.
    public var interval = 10.0

    public init() {}

    /// The grid folder: the configured one, else beside the state file; nil with neither.
    public func folder(stateFile: String?) -> String? {
        folder ?? stateFile.map { POSIX.folder(of: $0) + "/weather" }
    }
}

/// `[race]`.
public struct RaceConfiguration: Sendable {
    /// Minutes before the gun of each signal.
    public var sequenceMinutes: [Double] = [5, 4, 1, 0]
    /// Seconds before the gun at which the time left is spoken.
    public var announceSeconds: [Double] = RaceTimer.defaultAnnouncements
    /// A GPX file whose waypoints are the start line's ends (``StartLine/init(waypoints:)``).
    public var line: String?
    /// The race timer's button: a line of a GPIO chip (`[race] button`, `button_chip`, the board's `gpio` device).
    public var button: (chip: String, line: Int)?

    public init() {}
}

/// `[history]`: the values kept once a second in `history/` beside the state file (with `[web]` or `[uplink]` on),
/// at most `keep_mb` megabytes, the oldest days dropped first.
/// `paths` adds numbers to what is kept (a battery's voltage, the engine's hours); `vessels` keeps the tracks of the
/// vessels heard on AIS, a sample every `vessel_interval` seconds for at most `vessel_count` of them.
public struct HistoryConfiguration: Sendable {
    public var enabled = true
    public var keepMegabytes = 256.0
    public var paths: [String] = []
    public var vessels = true
    public var vesselInterval = 30.0
    public var vesselCount = 100
    public init() {}
}

/// `[voice]`: each announcement runs `command` with `arguments` and the words last, one at a time, never waited for
/// by the loop; with `device`, the speech goes to that ALSA device through `aplay` (espeak-ng's `--stdout`).
public struct VoiceConfiguration: Sendable {
    public var command = "espeak-ng"
    public var arguments: [String] = []
    public var device: String?

    public init() {}
}
