/// A first-order low-pass filter with a time constant, for one scalar quantity.
///
/// `y += α·(x - y)` with `α = 1 - exp(-dt/τ)`, so the result does not depend on the sample rate. A time constant of
/// 0 switches damping off. Time comes in as an argument; nothing here reads a clock.
public struct ScalarDamper: Hashable, Sendable {
    /// Seconds; 0 = no damping.
    public var timeConstant: Double
    public private(set) var value: Double?
    private var lastTime: Double?

    public init(timeConstant: Double) {
        self.timeConstant = timeConstant
    }

    /// Feeds a sample taken at `time` (seconds) and returns the damped value.
    @discardableResult
    public mutating func update(_ sample: Double, at time: Double) -> Double {
        defer { lastTime = time }
        guard let current = value, let lastTime, timeConstant > 0 else {
            value = sample
            return sample
        }
        let dt = max(0, time - lastTime)
        let alpha = 1 - exp(-dt / timeConstant)
        let next = current + alpha * (sample - current)
        value = next
        return next
    }

    /// Forgets the state: the next sample is taken as it is (after a gap, so stale history does not linger).
    public mutating func reset() {
        value = nil
        lastTime = nil
    }
}

/// Damping of a plane vector, component by component: used for wind (angle and speed together) and for angles
/// as unit vectors, so nothing jumps when a direction crosses 0/360.
public struct VectorDamper: Hashable, Sendable {
    private var x: ScalarDamper
    private var y: ScalarDamper

    public init(timeConstant: Double) {
        x = ScalarDamper(timeConstant: timeConstant)
        y = ScalarDamper(timeConstant: timeConstant)
    }

    public var timeConstant: Double { x.timeConstant }

    public var value: PlaneVector? {
        guard let vx = x.value, let vy = y.value else { return nil }
        return PlaneVector(x: vx, y: vy)
    }

    @discardableResult
    public mutating func update(_ sample: PlaneVector, at time: Double) -> PlaneVector {
        PlaneVector(x: x.update(sample.x, at: time), y: y.update(sample.y, at: time))
    }

    public mutating func reset() {
        x.reset()
        y.reset()
    }
}

/// Damping of an angle or direction (degrees) as a unit vector.
public struct AngleDamper: Hashable, Sendable {
    private var vector: VectorDamper

    public init(timeConstant: Double) {
        vector = VectorDamper(timeConstant: timeConstant)
    }

    /// The damped angle, (-180, 180]; use ``Angle/direction(_:)`` for a direction.
    public var value: Double? { vector.value.map { $0.angle } }

    @discardableResult
    public mutating func update(_ degrees: Double, at time: Double) -> Double {
        let damped = vector.update(PlaneVector(magnitude: 1, angle: degrees), at: time).angle
        // Undamped, the value goes through exactly rather than through sine and cosine.
        return timeConstant > 0 ? damped : degrees
    }

    public var timeConstant: Double { vector.timeConstant }

    public mutating func reset() { vector.reset() }
}
