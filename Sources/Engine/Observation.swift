/// Where an observation came from: an input's index, given by the engine when the input is registered.
public struct SourceID: Hashable, Sendable, Comparable {
    public let index: Int

    public init(_ index: Int) {
        self.index = index
    }

    public static func < (lhs: SourceID, rhs: SourceID) -> Bool { lhs.index < rhs.index }
}

/// A value with the time it arrived (engine seconds, monotonic) and its source.
public struct Observation<Value: Sendable>: Sendable {
    public var value: Value
    public var time: Double
    public var source: SourceID

    public init(value: Value, time: Double, source: SourceID) {
        self.value = value
        self.time = time
        self.source = source
    }

    /// Seconds since it arrived.
    public func age(at now: Double) -> Double { now - time }

    /// Whether it is still current under `timeout` seconds.
    public func isFresh(at now: Double, timeout: Double) -> Bool { now - time <= timeout && now >= time - 1 }
}
