/// Careful angle arithmetic for the geodesic solver: exact sines and cosines at multiples of 90°, differences of
/// longitudes with their rounding error, tiny angles rounded so that nearly equal inputs behave identically.
enum GeoMath {
    static let tiny = Double.leastNormalMagnitude.squareRoot()

    /// `u + v` and the rounding error of that sum (Knuth's two-sum).
    static func sum(_ u: Double, _ v: Double) -> (sum: Double, error: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        return (s, -(up + vpp))
    }

    /// An angle in [-180, 180].
    static func normalize(_ x: Double) -> Double {
        let y = remainder(x, 360)
        return abs(y) == 180 ? copysign(180, x) : y
    }

    /// Latitude, or NaN beyond ±90.
    static func fixLatitude(_ x: Double) -> Double { abs(x) > 90 ? .nan : x }

    /// `y - x` reduced to [-180, 180], with the rounding error of the reduction.
    static func difference(_ x: Double, _ y: Double) -> (difference: Double, error: Double) {
        let first = sum(remainder(-x, 360), remainder(y, 360))
        let second = sum(remainder(first.sum, 360), first.error)
        var d = second.sum
        let e = second.error
        if d == 0 || abs(d) == 180 { d = copysign(d, e == 0 ? y - x : -e) }
        return (d, e)
    }

    /// Rounds angles so small that they would otherwise lose the symmetry of the problem (below 1/16 of a
    /// degree's last bit, ~1e-15°) to a coarser grid.
    static func round(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        let w = z - y
        y = w > 0 ? z - w : y
        return copysign(y, x)
    }

    /// Sine and cosine of an angle in degrees, exact at multiples of 90°.
    static func sincosd(_ x: Double) -> (sin: Double, cos: Double) {
        var r = fmod(x, 360)
        let quarter = r.isNaN ? 0 : Int((r / 90).rounded())
        r -= 90 * Double(quarter)
        r *= .pi / 180
        let s = sin(r)
        let c = cos(r)
        switch quarter & 3 {
        case 0: return (s, c)
        case 1: return (c, 0 - s)
        case 2: return (0 - s, 0 - c)
        default: return (0 - c, s)
        }
    }

    /// atan2 in degrees, exact at multiples of 90°.
    static func atan2d(_ y: Double, _ x: Double) -> Double {
        var y = y
        var x = x
        var quarter = 0
        if abs(y) > abs(x) {
            swap(&x, &y)
            quarter = 2
        }
        if x.sign == .minus {
            x = -x
            quarter += 1
        }
        var angle = atan2(y, x) * 180 / .pi
        switch quarter {
        case 1: angle = copysign(180, y) - angle
        case 2: angle = 90 - angle
        case 3: angle = -90 + angle
        default: break
        }
        return angle
    }

    /// Normalises a (sin, cos) pair.
    static func norm(_ s: inout Double, _ c: inout Double) {
        let r = hypot(s, c)
        s /= r
        c /= r
    }

    /// Clenshaw summation of Σ c[k] sin(2kx) for k = 1...n (c[0] unused).
    static func sinSeries(_ sinx: Double, _ cosx: Double, _ c: UnsafeBufferPointer<Double>, _ n: Int) -> Double {
        let ar = 2 * (cosx - sinx) * (cosx + sinx)
        var k = n + 1
        var y0 = 0.0
        if n & 1 == 1 {
            k -= 1
            y0 = c[k]
        }
        var y1 = 0.0
        var pairs = n / 2
        while pairs > 0 {
            pairs -= 1
            k -= 1
            y1 = ar * y0 - y1 + c[k]
            k -= 1
            y0 = ar * y1 - y0 + c[k]
        }
        return 2 * sinx * cosx * y0
    }
}
