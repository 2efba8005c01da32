import Engine
import Marine
import N2K
import NMEA

/// What Telltale puts on the NMEA 2000 bus, sans-I/O: the engine's report and the 0183 sentences passed to the bus
/// in, with the time; messages (PGN, priority, payload) out, for the node to address and send.
///
/// - **Computed** (``Computed``), from each tick's report, at the intervals canboat's database gives, one SID for the
///   values of one tick: true wind (130306, boat-referenced, and ground-referenced to north where the engine knows
///   it), apparent wind, heel and pitch from the IMU (127257), the heading the engine uses (127250), and while a route
///   of the boat's own is followed the cross-track error (129283), the navigation data (129284) and the route
///   (129285, when it changes and every 10 s). A value whose source is this bus is never sent back to it; wind made
///   from the forecast never goes out (NMEA 2000 cannot say so); neither does guidance a plotter upstream gives.
/// - **Converted** (``Conversion``), from the 0183 sentences of the inputs the router passes to the bus: each sent when
///   it comes and repeated at its PGN's interval (a second at least) until `hold` seconds have gone by with nothing
///   newer (Actisense's rule: a plotter sees a value go when the instrument stops); RMC, GGA, GLL, VTG and ZDA that
///   come within `merge` seconds of one another make one position (129025, 129026, 129029, 126992), as Yacht
///   Devices' gateways merge them.
public struct N2KOutbound: Sendable {
    public enum Computed: String, CaseIterable, Hashable, Sendable {
        case apparentWind = "apparent-wind"
        case trueWind = "true-wind"
        case groundWind = "ground-wind"
        case attitude
        case heading
        case navigation
        case route
    }

    public enum Conversion: String, CaseIterable, Hashable, Sendable {
        case position, heading, wind, speed, depth, temperature, log, environment, ais, navigation, attitude
        case rateOfTurn = "rate-of-turn"
        case rudder

        /// What is converted unless the configuration says otherwise: what the engine does not send itself.
        public static let standard: Set<Conversion> = [
            .position, .speed, .depth, .temperature, .log, .environment, .ais, .rateOfTurn, .rudder,
        ]

        /// The 0183 formatters this conversion reads (for the router's address filter: `*RMC`...).
        public var formatters: [String] {
            switch self {
            case .position: ["RMC", "GGA", "GLL", "VTG", "ZDA"]
            case .heading: ["HDG", "HDM", "HDT"]
            case .wind: ["MWV", "MWD", "VWR", "VWT"]
            case .speed: ["VHW"]
            case .depth: ["DPT", "DBT"]
            case .temperature: ["MTW"]
            case .log: ["VLW"]
            case .environment: ["XDR", "MDA"]
            case .ais: ["VDM"]
            case .navigation: ["RMB", "XTE", "APB"]
            case .attitude: ["XDR"]
            case .rateOfTurn: ["ROT"]
            case .rudder: ["RSA"]
            }
        }
    }

    public struct Settings: Sendable {
        public var send: Set<Computed> = Set(Computed.allCases)
        public var convert: Set<Conversion> = Conversion.standard
        /// Seconds a converted value is repeated for when nothing newer comes.
        public var hold = 4.0
        /// Seconds within which RMC, GGA, GLL, VTG and ZDA make one position.
        public var merge = 0.05

        public init() {}
    }

    /// Whether the value the engine uses for a group came from this bus (then it is not sent back).
    public struct BusSources: Hashable, Sendable {
        public var wind = false
        public var heading = false
        public var attitude = false

        public init(wind: Bool = false, heading: Bool = false, attitude: Bool = false) {
            self.wind = wind
            self.heading = heading
            self.attitude = attitude
        }
    }

    /// One message to send, before the node gives it its source address.
    public struct Outgoing: Hashable, Sendable {
        public var pgn: UInt32
        public var priority: UInt8
        public var payload: N2KPayload
        /// Whom an addressed PGN is for (255: all).
        public var destination: UInt8 = 255

        public init(pgn: UInt32, payload: N2KPayload) {
            self.pgn = pgn
            priority = PGNCatalog.priority(pgn)
            self.payload = payload
        }

        public init(pgn: UInt32, priority: UInt8, destination: UInt8, payload: N2KPayload) {
            self.pgn = pgn
            self.priority = priority
            self.destination = destination
            self.payload = payload
        }
    }

    /// A converted message repeated until its hold time is gone.
    struct Held: Sendable {
        var message: Outgoing
        var received: Double
        var sent: Double
        var interval: Double
    }

    /// RMC, GGA, GLL, VTG and ZDA of one moment, merged.
    struct PendingPosition: Sendable {
        var opened: Double
        var latitude: Double?
        var longitude: Double?
        var course: Double?
        var speed: Double?
        var utc: UTCTime?
        var date: UTCDate?
        var gga: GGA?
    }

    public let settings: Settings
    var sid = 0
    var due: [UInt32: Double] = [:]
    var held: [UInt32: Held] = [:]
    var pending: PendingPosition?
    var lastRoute: Route?
    var routeSent = -Double.infinity
    /// Messages made, and 0183 sentences the conversions could not read.
    public internal(set) var computed = 0
    public internal(set) var converted = 0
    public internal(set) var unreadable = 0

    public init(settings: Settings = Settings()) { self.settings = settings }

    /// The 0183 address patterns the router should pass to the bus for the conversions (`*RMC`, ...).
    public var patterns: [String] {
        var out: [String] = []
        for conversion in Conversion.allCases where settings.convert.contains(conversion) {
            for formatter in conversion.formatters where !out.contains("*" + formatter) { out.append("*" + formatter) }
        }
        return out
    }
}
