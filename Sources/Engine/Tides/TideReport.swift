import Marine

/// The tide where the boat is, from the nearest tide station's predictions: the height now, where it goes next,
/// and the water there will be under the boat at the next low water.
public struct TideReport: Hashable, Sendable {
    public var station: String
    /// Metres from the boat to the station.
    public var distance: Double
    public var datum: String
    /// Metres above the datum, now.
    public var height: Double
    public var rising: Bool
    /// The last high or low water before now, and the next of each.
    public var previous: TideEvent?
    public var nextHigh: TideEvent?
    public var nextLow: TideEvent?
    /// Metres of water at the next low water where the boat is: the sounding now, less the tide now, plus the tide
    /// then; below the keel when the boat's draft is known, else below the transducer. Nil without a sounding.
    public var depthAtNextLow: Double?
    public var depthIsBelowKeel = false

    public init(station: String, distance: Double, datum: String, height: Double, rising: Bool) {
        self.station = station
        self.distance = distance
        self.datum = datum
        self.height = height
        self.rising = rising
    }
}

/// The tidal stream predicted at the boat from the current stations near it (a prediction, never a measurement):
/// the direction it sets and its speed.
public struct TidalStream: Hashable, Sendable {
    /// Degrees true, towards which it flows.
    public var set: Double
    /// m/s.
    public var drift: Double
    /// The nearest station it comes from, how far it is (metres), and how many stations were weighed.
    public var station: String
    public var distance: Double
    public var stations: Int

    public init(set: Double, drift: Double, station: String, distance: Double, stations: Int) {
        self.set = set
        self.drift = drift
        self.station = station
        self.distance = distance
        self.stations = stations
    }
}

/// The current the boat is measured to be in: its track over the ground less its way through the water (the heading
/// with leeway and the log's speed), averaged over a minute. What the instruments see, beside the prediction.
public struct MeasuredCurrent: Hashable, Sendable {
    /// Degrees true, towards which it flows, and m/s.
    public var set: Double
    public var drift: Double

    public init(set: Double, drift: Double) {
        self.set = set
        self.drift = drift
    }
}
