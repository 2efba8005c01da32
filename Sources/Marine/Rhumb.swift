/// The rhumb line (loxodrome) on the ellipsoid: a constant course, as a boat steering one compass course sails.
///
/// With isometric latitude ψ = asinh(tan φ) - e·atanh(e·sin φ) the course is `atan2(Δλ, Δψ)` and the distance is
/// `√(Δλ² + Δψ²) · ΔM/Δψ`, M being the meridian distance (Helmert's series in the third flattening n, fourth
/// order: 1e-14 relative). The ratio ΔM/Δψ tends to the radius of the parallel, N·cos φ, when Δψ does, which
/// keeps east-west courses exact. Checked against GeographicLib's `RhumbSolve` in the tests.
public struct Rhumb: Sendable {
    public static let wgs84 = Rhumb(equatorialRadius: 6_378_137, flattening: 1 / 298.257_223_563)

    public let a: Double
    public let f: Double
    private let e: Double
    private let e2: Double
    private let n: Double
    private let meridianScale: Double
    private let helmert: (Double, Double, Double, Double)

    public init(equatorialRadius: Double, flattening: Double) {
        a = equatorialRadius
        f = flattening
        e2 = f * (2 - f)
        e = e2.squareRoot()
        n = f / (2 - f)
        let n2 = n * n
        meridianScale = a / (1 + n) * (1 + n2 / 4 + n2 * n2 / 64)
        helmert = (
            -3 * n / 2 + 9 * n2 * n / 16, 15 * n2 / 16 - 15 * n2 * n2 / 32, -35 * n2 * n / 48, 315 * n2 * n2 / 512
        )
    }

    /// Isometric latitude of φ (degrees), dimensionless.
    public func isometricLatitude(_ latitude: Double) -> Double {
        let phi = latitude * .pi / 180
        return asinh(tan(phi)) - e * atanh(e * sin(phi))
    }

    /// Meridian distance from the equator to φ (degrees), metres.
    public func meridianDistance(_ latitude: Double) -> Double {
        let phi = latitude * .pi / 180
        let (c1, c2, c3, c4) = helmert
        return meridianScale * (phi + c1 * sin(2 * phi) + c2 * sin(4 * phi) + c3 * sin(6 * phi) + c4 * sin(8 * phi))
    }

    /// Radius of the parallel at φ: N·cos φ.
    func parallelRadius(_ latitude: Double) -> Double {
        let phi = latitude * .pi / 180
        let s = sin(phi)
        return a * cos(phi) / (1 - e2 * s * s).squareRoot()
    }

    /// Course (degrees true, (-180, 180]) and distance (metres) of the rhumb line from `p1` to `p2`, the shorter
    /// way round in longitude.
    public func inverse(_ p1: GeoPoint, _ p2: GeoPoint) -> (course: Double, distance: Double) {
        let lambda12 = GeoMath.difference(p1.longitude, p2.longitude).difference * .pi / 180
        let psi1 = isometricLatitude(p1.latitude)
        let psi2 = isometricLatitude(p2.latitude)
        let psi12 = psi2 - psi1
        let course = atan2(lambda12, psi12) * 180 / .pi
        let ratio: Double
        if abs(psi12) < 1e-7 {
            // Along (nearly) a parallel: the limit of ΔM/Δψ, at the mean latitude.
            ratio = parallelRadius((p1.latitude + p2.latitude) / 2)
        } else {
            ratio = (meridianDistance(p2.latitude) - meridianDistance(p1.latitude)) / psi12
        }
        return (course, hypot(lambda12, psi12) * ratio)
    }
}
