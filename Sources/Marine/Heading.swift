/// Heading references: compass (sensor) heading, deviation, magnetic heading, variation, true heading.
public enum Heading {
    /// Magnetic heading from the compass reading and its deviation (positive east).
    public static func magnetic(sensor: Double, deviation: Double?) -> Double {
        Angle.direction(sensor + (deviation ?? 0))
    }

    /// True heading from magnetic heading and variation (positive east).
    public static func `true`(magnetic: Double, variation: Double) -> Double {
        Angle.direction(magnetic + variation)
    }

    /// Magnetic from true.
    public static func magnetic(true heading: Double, variation: Double) -> Double {
        Angle.direction(heading - variation)
    }
}
