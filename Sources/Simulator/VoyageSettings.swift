import Marine
import NMEA

/// Everything a simulated voyage depends on. Same settings and seed, same voyage, byte for byte.
public struct VoyageSettings: Sendable {
    public var seed: UInt64 = 1
    /// UNIX seconds at the start.
    public var startTime: Double =
        Double(UTCDate(year: 2026, month: 6, day: 21).daysSinceEpoch) * 86_400
        + 10 * 3600
    /// Longest voyage in seconds; it ends earlier, 30 s after the last waypoint.
    public var duration = 3600.0
    /// Direction the wind comes from over ground, degrees true, and its speed in knots.
    public var windDirection = 225.0
    public var windSpeed = 14.0
    /// Amplitude (degrees) and period (seconds) of the slow wind shift.
    public var shiftAmplitude = 8.0
    public var shiftPeriod = 600.0
    /// Gusts: extra knots and how often one starts (per second).
    public var gustStrength = 4.0
    public var gustRate = 1.0 / 90
    /// Current: direction it flows towards, degrees true, and speed in knots.
    public var currentSet = 70.0
    public var currentSpeed = 0.6
    /// Wave roll and pitch amplitudes (degrees) and the main wave period (seconds).
    public var rollAmplitude = 4.0
    public var pitchAmplitude = 2.0
    public var wavePeriod = 6.0
    /// Vertical wave acceleration amplitude, m/s².
    public var heaveAcceleration = 0.5
    /// Magnetic variation, degrees east positive.
    public var variation = -1.5
    /// Height of the masthead wind unit above the centre of rotation, metres (0: no mast motion in the readings).
    public var mastHeight = 15.0
    /// Emit an attitude sensor's XDR ROLL/PTCH (5 Hz) in the log.
    public var attitudeSensor = true
    /// Gyro bias, degrees per second, per axis.
    public var gyroBias = (x: 0.5, y: -0.3, z: 0.4)
    /// Arrival radius of the simulated helmsman, metres (the same as Telltale's default).
    public var arrivalRadius = 0.05 * 1852.0
    /// Talkers.
    public var gpsTalker = "GP"

    public init() {}
}
