import Engine
import NMEA

/// What one output carries, as the router decides it: pure data, no descriptor. The shell builds one per configured
/// output and keeps the transport; the router says which sentences go to which output index.
public struct OutputPolicy: Sendable {
    public var name: String
    /// Carry the engine's computed sentences, of these kinds.
    public var computed = true
    public var kinds: Set<ComputedKind> = ComputedKind.standard
    /// Carry the inputs' sentences, except those of `excludedSources` (the same device or address: never back).
    public var passThrough = true
    public var excludedSources: Set<SourceID> = []
    /// Inputs whose sources never come here either, also those registered later: a source named like one of these,
    /// or like one of these and a colon (`n2k:c0a8...`, a device of the NMEA 2000 bus this output writes to).
    public var excludedInputs: [String] = []
    public var filter = AddressFilter(include: [], exclude: [])
    /// Talker of computed sentences here (nil: the engine's). Wind made from the forecast keeps its own.
    public var talker: Talker?
    /// Carry wind made from the forecast (``WeatherSettings/windFallback``); without, this output gets no wind while
    /// no anemometer is heard (an autopilot that steers to the wind).
    public var forecastWind = true
    public var rateLimits: [(pattern: String, interval: Double)] = []
    /// Heel and pitch XDR transducer names and decimals here (nil: the engine's).
    public var attitudeNames: (String, String)?
    public var attitudeDecimals: Int?
    /// The form of the sentences that end in an FAA mode field (computed sentences).
    public var dialect = NMEADialect.compatible
    /// An output that clients connect to (a TCP server): nothing is prepared for it while none is connected, and
    /// clients coming and going are events (``Router/clientConnected(output:_:)``).
    public var servesClients = false

    public init(name: String) {
        self.name = name
    }
}
