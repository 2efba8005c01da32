/// The tide on board (`[boat] draft` and `transducer_depth`; `[tides]`): what the water under the keel needs, and when
/// the stations near the boat are looked for again.
public struct TideSettings: Sendable {
    /// Metres from the waterline to the bottom of the keel; nil: the depth at low water is said below the
    /// transducer.
    public var draft: Double?
    /// Metres from the waterline down to the depth transducer.
    public var transducerDepth = 0.0
    /// Metres the boat moves before the stations near her are looked for again, and seconds between two looks.
    public var reloadDistance = 2 * 1852.0
    public var reloadInterval = 60.0

    public init() {}
}
