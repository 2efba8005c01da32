/// `[routing]`: the weather router on board (docs/routing.md): on wherever there is a polar, a forecast and the base
/// map; how it plans, and when it plans again under way.
public struct RoutingConfiguration: Sendable, Equatable {
    /// `enabled = false` turns it off.
    public var enabled = true
    /// Metres kept from every coast.
    public var margin = 200.0
    /// The polar's share the boat makes, percent.
    public var performance = 100.0
    /// Minutes between isochrones.
    public var stepMinutes = 30.0
    /// Planned again from the boat's position when she is this many minutes behind the plan (0: never for that).
    public var behindMinutes = 30.0
    /// The polar learnt from the boat's own sailing (the calibration's learner, docs/calibration.md) taken over the
    /// configured one where it has data, once there is one.
    public var learntPolar = true

    public init() {}
}
