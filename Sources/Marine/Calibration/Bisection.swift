/// The root of a function that changes sign once in an interval, by bisection (30 halvings): what the calibration
/// learner finds the upwash and the wind speed's factor with (the value that brings a median to zero).
public enum Bisection {
    /// The root in `low...high`, or nil when `f` has the same sign at both ends (then no value there will do).
    public static func root(_ low: Double, _ high: Double, _ f: (Double) -> Double) -> Double? {
        var low = low
        var high = high
        var atLow = f(low)
        guard (atLow > 0) != (f(high) > 0) else { return nil }
        for _ in 0..<30 {
            let mid = (low + high) / 2
            let atMid = f(mid)
            if (atMid > 0) == (atLow > 0) {
                low = mid
                atLow = atMid
            } else {
                high = mid
            }
        }
        return (low + high) / 2
    }
}
