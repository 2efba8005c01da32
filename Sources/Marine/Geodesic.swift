/// A point on the ellipsoid, degrees (latitude north positive, longitude east positive).
public struct GeoPoint: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The solution of an inverse geodesic problem.
public struct GeodesicInverse: Hashable, Sendable {
    /// Metres along the geodesic.
    public var distance: Double
    /// Azimuth at the first point, degrees clockwise from north, (-180, 180].
    public var initialAzimuth: Double
    /// Azimuth at the second point (the forward direction there).
    public var finalAzimuth: Double
}

/// The solution of a direct geodesic problem.
public struct GeodesicDirect: Hashable, Sendable {
    public var point: GeoPoint
    /// Forward azimuth at the end point.
    public var finalAzimuth: Double
}

/// Geodesics on an ellipsoid of revolution (WGS84 by default), after Karney, "Algorithms for geodesics",
/// J. Geodesy 87 (2013): series in the third flattening to sixth order, Newton's method on the azimuth for the
/// inverse problem with the astroid starting guess for nearly antipodal points. Accurate to a few nanometres;
/// checked in the tests against GeographicLib's `GeodSolve`.
///
/// Nothing here allocates: coefficient arrays live in fixed inline storage.
public struct Geodesic: Sendable {
    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257_223_563)

    public let a: Double
    public let f: Double
    let f1: Double
    let e2: Double
    let ep2: Double
    let n: Double
    let b: Double
    let etol2: Double
    let a3x: InlineArray<6, Double>
    let c3x: InlineArray<15, Double>

    static let order = 6
    static let maxit1 = 20
    static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10
    static let tol0 = Double.ulpOfOne
    static let tol1 = 200 * tol0
    static let tol2 = tol0.squareRoot()
    static let tolb = tol0 * tol2
    static let xthresh = 1000 * tol2

    public init(equatorialRadius: Double, flattening: Double) {
        a = equatorialRadius
        f = flattening
        f1 = 1 - f
        e2 = f * (2 - f)
        ep2 = e2 / (f1 * f1)
        n = f / (2 - f)
        b = a * f1
        etol2 = 0.1 * Geodesic.tol2 / (max(0.001, abs(f)) * min(1, 1 - f / 2) / 2).squareRoot()
        let n = self.n
        // A3 as a polynomial in eps whose coefficients are polynomials in n (Karney 2013, eq. 24).
        a3x = [
            1, -(1 - n) / 2, -(2 + n - 3 * n * n) / 8, -(1 + 3 * n + n * n) / 16, -(3 + 2 * n) / 64, -3.0 / 128,
        ]
        // C3[l], l = 1...5, as polynomials in eps (eq. 25): coefficient of eps^j for j = l...5, flattened.
        c3x = [
            (1 - n) / 4, (1 - n * n) / 8, (3 + 3 * n - n * n) / 64, (5 + 2 * n) / 128, 3.0 / 128,
            (2 - 3 * n + n * n) / 32, (3 - 2 * n - 3 * n * n) / 64, (3 + n) / 128, 5.0 / 256,
            (5 - 9 * n + 5 * n * n) / 192, (9 - 10 * n) / 384, 7.0 / 512,
            (7 - 14 * n) / 512, 7.0 / 512,
            21.0 / 2560,
        ]
    }

    // MARK: - Series

    typealias Coefficients = InlineArray<7, Double>

    static func a1m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (e2 + 4) + 64) / 256
        return (t + eps) / (1 - eps)
    }

    static func c1(_ eps: Double) -> Coefficients {
        let e2 = eps * eps
        var d = eps
        var c = Coefficients(repeating: 0)
        c[1] = d * ((6 - e2) * e2 - 16) / 32
        d *= eps
        c[2] = d * ((64 - 9 * e2) * e2 - 128) / 2048
        d *= eps
        c[3] = d * (9 * e2 - 16) / 768
        d *= eps
        c[4] = d * (3 * e2 - 5) / 512
        d *= eps
        c[5] = -7 * d / 1280
        d *= eps
        c[6] = -7 * d / 2048
        return c
    }

    static func c1p(_ eps: Double) -> Coefficients {
        let e2 = eps * eps
        var d = eps
        var c = Coefficients(repeating: 0)
        c[1] = d * (e2 * (205 * e2 - 432) + 768) / 1536
        d *= eps
        c[2] = d * (e2 * (4005 * e2 - 4736) + 3840) / 12288
        d *= eps
        c[3] = d * (116 - 225 * e2) / 384
        d *= eps
        c[4] = d * (2695 - 7173 * e2) / 7680
        d *= eps
        c[5] = 3467 * d / 7680
        d *= eps
        c[6] = 38081 * d / 61440
        return c
    }

    static func a2m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (-11 * e2 - 28) - 192) / 256
        return (t - eps) / (1 + eps)
    }

    static func c2(_ eps: Double) -> Coefficients {
        let e2 = eps * eps
        var d = eps
        var c = Coefficients(repeating: 0)
        c[1] = d * (e2 * (e2 + 2) + 16) / 32
        d *= eps
        c[2] = d * (e2 * (35 * e2 + 64) + 384) / 2048
        d *= eps
        c[3] = d * (15 * e2 + 80) / 768
        d *= eps
        c[4] = d * (7 * e2 + 35) / 512
        d *= eps
        c[5] = 63 * d / 1280
        d *= eps
        c[6] = 77 * d / 2048
        return c
    }

    func a3(_ eps: Double) -> Double {
        var value = 0.0
        for index in stride(from: 5, through: 0, by: -1) { value = value * eps + a3x[index] }
        return value
    }

    func c3(_ eps: Double) -> Coefficients {
        var c = Coefficients(repeating: 0)
        var offset = 0
        var power = 1.0
        for l in 1...5 {
            power *= eps
            var value = 0.0
            var epsPower = 1.0
            for j in 0..<(6 - l) {
                value += c3x[offset + j] * epsPower
                epsPower *= eps
            }
            offset += 6 - l
            c[l] = value * power
        }
        return c
    }

    static func series(_ sinx: Double, _ cosx: Double, _ c: Coefficients, _ count: Int) -> Double {
        c.span.withUnsafeBufferPointer { GeoMath.sinSeries(sinx, cosx, $0, count) }
    }
}
