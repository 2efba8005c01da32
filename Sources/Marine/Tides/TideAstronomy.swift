/// The sun's and moon's mean motions at an instant, as Schureman's *Manual of Harmonic Analysis and Prediction of
/// Tides* (US Coast and Geodetic Survey, 1958) gives them, and the quantities of the moon's orbit the node factors
/// are made of. Angles in degrees unless named radians.
///
/// Schureman's polynomials are in Julian centuries from 1899 December 31 at 12:00 (1900 January 0.5).
struct TideAstronomy {
    /// The mean sun's hour angle (180° + 15° an hour of UTC), the moon's mean longitude, the sun's, the lunar perigee's,
    /// the moon's ascending node's and the solar perigee's.
    let hourAngle: Double
    let moon: Double
    let sun: Double
    let lunarPerigee: Double
    let node: Double
    let solarPerigee: Double
    /// Radians: the inclination of the moon's orbit to the equator (I), ξ, ν, ν′ and 2ν″ (Schureman's table 6 and
    /// equations 224 and 232), and P = p − ξ.
    let inclination: Double
    let xi: Double
    let nu: Double
    let nuPrime: Double
    let twoNuSecond: Double
    let perigeeFromIntersection: Double

    static let radian = Double.pi / 180

    init(unixTime: Double) {
        let centuries = (unixTime / 86_400 + 2_440_587.5 - 2_415_020.0) / 36_525
        let t = centuries
        let hours = (unixTime - (unixTime / 86_400).rounded(.down) * 86_400) / 3600
        hourAngle = 180 + 15 * hours
        moon = 270.434164 + 481_267.8831 * t - 0.001133 * t * t + 0.0000019 * t * t * t
        sun = 279.696678 + 36_000.768925 * t + 0.0003025 * t * t
        lunarPerigee = 334.329556 + 4069.034033 * t - 0.010325 * t * t - 0.0000125 * t * t * t
        node = 259.183275 - 1934.142008 * t + 0.002078 * t * t + 0.0000022 * t * t * t
        solarPerigee = 281.220833 + 1.719175 * t + 0.000453 * t * t + 0.000003 * t * t * t
        let r = Self.radian
        let obliquity = (23.452294 - 0.0130125 * t) * r
        let lunarInclination = 5.145 * r
        let n = Self.wrap(node) * r
        let cosI = cos(obliquity) * cos(lunarInclination) - sin(obliquity) * sin(lunarInclination) * cos(n)
        let inclination = atan2((1 - cosI * cosI).squareRoot(), cosI)
        // tan(½(ν + ξ)) and tan(½(ν − ξ)), each from tan(½N) in the same quadrant as ½N.
        let half = n / 2
        let a = Self.wrapRadians(
            atan2(
                cos((obliquity - lunarInclination) / 2) / cos((obliquity + lunarInclination) / 2) * sin(half),
                cos(half)) - half)
        let b = Self.wrapRadians(
            atan2(
                sin((obliquity - lunarInclination) / 2) / sin((obliquity + lunarInclination) / 2) * sin(half),
                cos(half)) - half)
        xi = -(a + b)
        nu = a - b
        let sin2I = sin(2 * inclination)
        nuPrime = atan2(sin2I * sin(nu), sin2I * cos(nu) + 0.3347)
        let sinI2 = sin(inclination) * sin(inclination)
        twoNuSecond = atan2(sinI2 * sin(2 * nu), sinI2 * cos(2 * nu) + 0.0727)
        self.inclination = inclination
        perigeeFromIntersection = Self.wrap(lunarPerigee) * r - xi
    }

    /// Degrees to [0, 360).
    static func wrap(_ degrees: Double) -> Double {
        let turned = degrees - (degrees / 360).rounded(.down) * 360
        return turned >= 360 ? 0 : turned
    }

    /// Radians to (−π, π].
    static func wrapRadians(_ angle: Double) -> Double {
        var a = angle
        while a > Double.pi { a -= 2 * Double.pi }
        while a <= -Double.pi { a += 2 * Double.pi }
        return a
    }

    /// The node factor f and the nodal phase u (radians) of one of the basic lunar terms compound constituents are
    /// made of (Schureman's table 2 and equations 73 to 78, 144 to 149, 197, 207, 215, 227, 235).
    func node(_ base: TideConstituent.NodeBase) -> (f: Double, u: Double) {
        let i = inclination
        let halfCos = cos(i / 2)
        let halfSin = sin(i / 2)
        switch base {
        case .m2: return (halfCos * halfCos * halfCos * halfCos / 0.9154, 2 * xi - 2 * nu)
        case .o1: return (sin(i) * halfCos * halfCos / 0.3800, 2 * xi - nu)
        case .k1:
            let s = sin(2 * i)
            return ((0.8965 * s * s + 0.6001 * s * cos(nu) + 0.1006).squareRoot(), -nuPrime)
        case .k2:
            let s = sin(i) * sin(i)
            return ((19.0444 * s * s + 2.7702 * s * cos(2 * nu) + 0.0981).squareRoot(), -twoNuSecond)
        case .j1: return (sin(2 * i) / 0.7214, -nu)
        case .oo1: return (sin(i) * halfSin * halfSin / 0.0164, -2 * xi - nu)
        case .mf: return (sin(i) * sin(i) / 0.1578, -2 * xi)
        case .mm: return ((2.0 / 3.0 - sin(i) * sin(i)) / 0.5021, 0)
        case .m3: return (halfCos * halfCos * halfCos * halfCos * halfCos * halfCos / 0.8758, 3 * xi - 3 * nu)
        case .m1:
            let p = perigeeFromIntersection
            let o1 = node(.o1).f
            return (o1 * (2.310 + 1.435 * cos(2 * p)).squareRoot(), xi - nu + atan2(0.483 * sin(p), cos(p)))
        case .l2:
            let p = perigeeFromIntersection
            let tan2 = (halfSin / halfCos) * (halfSin / halfCos)
            let inverseRa = (1 - 12 * tan2 * cos(2 * p) + 36 * tan2 * tan2).squareRoot()
            let r = atan2(sin(2 * p), 1 / (6 * tan2) - cos(2 * p))
            let m2 = node(.m2)
            return (m2.f * inverseRa, m2.u - r)
        }
    }
}
