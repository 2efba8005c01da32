#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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
    private let a3x: InlineArray<6, Double>
    private let c3x: InlineArray<15, Double>

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

    // MARK: - Inverse

    /// Distance and azimuths between two points.
    public func inverse(_ p1: GeoPoint, _ p2: GeoPoint) -> GeodesicInverse {
        var (lon12, lon12s) = GeoMath.difference(p1.longitude, p2.longitude)
        var lonsign: Double = lon12.sign == .minus ? -1 : 1
        lon12 = lonsign * GeoMath.round(lon12)
        lon12s = GeoMath.round((180 - lon12) - lonsign * lon12s)
        let lam12 = lon12 * .pi / 180
        var slam12: Double
        var clam12: Double
        if lon12 > 90 {
            (slam12, clam12) = GeoMath.sincosd(lon12s)
            clam12 = -clam12
        } else {
            (slam12, clam12) = GeoMath.sincosd(lon12)
        }
        var lat1 = GeoMath.round(GeoMath.fixLatitude(p1.latitude))
        var lat2 = GeoMath.round(GeoMath.fixLatitude(p2.latitude))
        // Swap so that |lat1| >= |lat2|, then make lat1 <= 0.
        let swapp: Double = abs(lat1) < abs(lat2) || lat2.isNaN ? -1 : 1
        if swapp < 0 {
            lonsign *= -1
            swap(&lat1, &lat2)
        }
        let latsign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latsign
        lat2 *= latsign

        var (sbet1, cbet1) = GeoMath.sincosd(lat1)
        sbet1 *= f1
        GeoMath.norm(&sbet1, &cbet1)
        cbet1 = max(GeoMath.tiny, cbet1)
        var (sbet2, cbet2) = GeoMath.sincosd(lat2)
        sbet2 *= f1
        GeoMath.norm(&sbet2, &cbet2)
        cbet2 = max(GeoMath.tiny, cbet2)
        // Keep the symmetries exact where rounding would break them.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = copysign(sbet1, sbet2) }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        let dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot()
        let dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()

        var s12x = 0.0
        var salp1 = 0.0
        var calp1 = 0.0
        var salp2 = 0.0
        var calp2 = 0.0
        var meridian = lat1 == -90 || slam12 == 0

        if meridian {
            // Along a meridian the azimuths are known; only the distance is solved.
            calp1 = clam12
            salp1 = slam12
            calp2 = 1
            salp2 = 0
            let ssig1 = sbet1
            let csig1 = calp1 * cbet1
            let ssig2 = sbet2
            let csig2 = calp2 * cbet2
            var sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
            let lengths = self.lengths(n, sig12, ssig1, csig1, dn1, ssig2, csig2, dn2)
            var m12x = lengths.m12b
            s12x = lengths.s12b
            if sig12 < 1 || m12x >= 0 {
                if sig12 < 3 * GeoMath.tiny {
                    sig12 = 0
                    m12x = 0
                    s12x = 0
                }
                s12x *= b
            } else {
                meridian = false
            }
        }

        if !meridian && sbet1 == 0 && (f <= 0 || lon12s >= f * 180) {
            // Along the equator.
            calp1 = 0
            calp2 = 0
            salp1 = 1
            salp2 = 1
            s12x = a * lam12
        } else if !meridian {
            var start = inverseStart(sbet1, cbet1, dn1, sbet2, cbet2, dn2, lam12, slam12, clam12)
            salp1 = start.salp1
            calp1 = start.calp1
            if start.sig12 >= 0 {
                // Short line: the starting guess is the answer.
                s12x = start.sig12 * b * start.dnm
                salp2 = start.salp2
                calp2 = start.calp2
            } else {
                var tripn = false
                var tripb = false
                var salp1a = GeoMath.tiny
                var calp1a = 1.0
                var salp1b = GeoMath.tiny
                var calp1b = -1.0
                var result = lambda12(sbet1, cbet1, dn1, sbet2, cbet2, dn2, salp1, calp1, slam12, clam12, true)
                var numit = 0
                while numit < Geodesic.maxit2 {
                    result = lambda12(
                        sbet1, cbet1, dn1, sbet2, cbet2, dn2, salp1, calp1, slam12, clam12, numit < Geodesic.maxit1)
                    let v = result.lam12
                    if tripb || !(abs(v) >= (tripn ? 8 : 1) * Geodesic.tol0) { break }
                    // Keep a bracket on the root.
                    if v > 0 && (numit > Geodesic.maxit1 || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1
                        calp1b = calp1
                    } else if v < 0 && (numit > Geodesic.maxit1 || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1
                        calp1a = calp1
                    }
                    numit += 1
                    if numit < Geodesic.maxit1 && result.dlam12 > 0 {
                        let dalp1 = -v / result.dlam12
                        if abs(dalp1) < .pi {
                            let sdalp1 = sin(dalp1)
                            let cdalp1 = cos(dalp1)
                            let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                            if nsalp1 > 0 {
                                calp1 = calp1 * cdalp1 - salp1 * sdalp1
                                salp1 = nsalp1
                                GeoMath.norm(&salp1, &calp1)
                                tripn = abs(v) <= 16 * Geodesic.tol0
                                continue
                            }
                        }
                    }
                    // Newton failed to stay in the bracket: bisect.
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    GeoMath.norm(&salp1, &calp1)
                    tripn = false
                    tripb =
                        abs(salp1a - salp1) + (calp1a - calp1) < Geodesic.tolb
                        || abs(salp1 - salp1b) + (calp1 - calp1b) < Geodesic.tolb
                }
                let lengths = self.lengths(
                    result.eps, result.sig12, result.ssig1, result.csig1, dn1, result.ssig2, result.csig2, dn2)
                s12x = lengths.s12b * b
                salp2 = result.salp2
                calp2 = result.calp2
            }
            start.sig12 = 0
        }

        var salp1o = salp1
        var calp1o = calp1
        var salp2o = salp2
        var calp2o = calp2
        if swapp < 0 {
            swap(&salp1o, &salp2o)
            swap(&calp1o, &calp2o)
        }
        salp1o *= swapp * lonsign
        calp1o *= swapp * latsign
        salp2o *= swapp * lonsign
        calp2o *= swapp * latsign
        return GeodesicInverse(
            distance: 0 + s12x, initialAzimuth: GeoMath.atan2d(salp1o, calp1o),
            finalAzimuth: GeoMath.atan2d(salp2o, calp2o))
    }

    private func lengths(
        _ eps: Double, _ sig12: Double, _ ssig1: Double, _ csig1: Double, _ dn1: Double, _ ssig2: Double,
        _ csig2: Double, _ dn2: Double
    ) -> (s12b: Double, m12b: Double) {
        let a1 = Geodesic.a1m1(eps)
        let c1a = Geodesic.c1(eps)
        let a2 = Geodesic.a2m1(eps)
        let c2a = Geodesic.c2(eps)
        let m0x = a1 - a2
        let b1 = Geodesic.series(ssig2, csig2, c1a, 6) - Geodesic.series(ssig1, csig1, c1a, 6)
        let s12b = (1 + a1) * (sig12 + b1)
        let b2 = Geodesic.series(ssig2, csig2, c2a, 6) - Geodesic.series(ssig1, csig1, c2a, 6)
        let j12 = m0x * sig12 + ((1 + a1) * b1 - (1 + a2) * b2)
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (s12b, m12b)
    }

    private struct Lambda {
        var lam12: Double
        var salp2: Double
        var calp2: Double
        var sig12: Double
        var ssig1: Double
        var csig1: Double
        var ssig2: Double
        var csig2: Double
        var eps: Double
        var dlam12: Double
    }

    private func lambda12(
        _ sbet1: Double, _ cbet1: Double, _ dn1: Double, _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
        _ salp1: Double, _ calp1: Double, _ slam120: Double, _ clam120: Double, _ diffp: Bool
    ) -> Lambda {
        var calp1 = calp1
        if sbet1 == 0 && calp1 == 0 { calp1 = -GeoMath.tiny }
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = calp1 * cbet1
        let comg1 = csig1
        GeoMath.norm(&ssig1, &csig1)
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2: Double
        if cbet2 != cbet1 || abs(sbet2) != -sbet1 {
            let inner =
                cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)
            calp2 = ((calp1 * cbet1) * (calp1 * cbet1) + inner).squareRoot() / cbet2
        } else {
            calp2 = abs(calp1)
        }
        var ssig2 = sbet2
        let somg2 = salp0 * sbet2
        var csig2 = calp2 * cbet2
        let comg2 = csig2
        GeoMath.norm(&ssig2, &csig2)
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2)
        let comg12 = comg1 * comg2 + somg1 * somg2
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)
        let k2 = calp0 * calp0 * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let c3a = c3(eps)
        let b312 = Geodesic.series(ssig2, csig2, c3a, 5) - Geodesic.series(ssig1, csig1, c3a, 5)
        let domg12 = -f * a3(eps) * salp0 * (sig12 + b312)
        let lam12 = eta + domg12
        var dlam12 = 0.0
        if diffp {
            if calp2 == 0 {
                dlam12 = -2 * f1 * dn1 / sbet1
            } else {
                let m12b = lengths(eps, sig12, ssig1, csig1, dn1, ssig2, csig2, dn2).m12b
                dlam12 = m12b * f1 / (calp2 * cbet2)
            }
        }
        return Lambda(
            lam12: lam12, salp2: salp2, calp2: calp2, sig12: sig12, ssig1: ssig1, csig1: csig1, ssig2: ssig2,
            csig2: csig2, eps: eps, dlam12: dlam12)
    }

    private struct Start {
        var sig12: Double
        var salp1: Double
        var calp1: Double
        var salp2: Double
        var calp2: Double
        var dnm: Double
    }

    private func inverseStart(
        _ sbet1: Double, _ cbet1: Double, _ dn1: Double, _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
        _ lam12: Double, _ slam12: Double, _ clam12: Double
    ) -> Start {
        var start = Start(sig12: -1, salp1: 0, calp1: 0, salp2: .nan, calp2: .nan, dnm: .nan)
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double
        var comg12: Double
        if shortline {
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            start.dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * start.dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }
        start.salp1 = cbet2 * somg12
        start.calp1 =
            comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = hypot(start.salp1, start.calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12
        if shortline && ssig12 < etol2 {
            start.salp2 = cbet1 * somg12
            start.calp2 =
                sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            GeoMath.norm(&start.salp2, &start.calp2)
            start.sig12 = atan2(ssig12, csig12)
        } else if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * cbet1 * cbet1 {
            // The spherical guess is good enough for Newton.
        } else {
            // Nearly antipodal: the astroid gives the starting azimuth.
            let lam12x = atan2(-slam12, -clam12)
            let k2 = sbet1 * sbet1 * ep2
            let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            let lamscale = f * cbet1 * a3(eps) * .pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -Geodesic.tol1 && x > -1 - Geodesic.xthresh {
                start.salp1 = min(1, -x)
                start.calp1 = -(1 - start.salp1 * start.salp1).squareRoot()
            } else {
                let k = Geodesic.astroid(x, y)
                let omg12a = lamscale * (-x * k / (1 + k))
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                start.salp1 = cbet2 * somg12
                start.calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        if !(start.salp1 <= 0) {
            GeoMath.norm(&start.salp1, &start.calp1)
        } else {
            start.salp1 = 1
            start.calp1 = 0
        }
        return start
    }

    /// The positive root k of k⁴ + 2k³ - (x² + y² - 1)k² - 2y²k - y² = 0.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x
        let q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        let s = p * q / 4
        let r2 = r * r
        let r3 = r * r2
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let angle = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }

    // MARK: - Direct

    /// The point at `distance` metres from `start` along the geodesic leaving at `azimuth` degrees.
    public func direct(from start: GeoPoint, azimuth: Double, distance: Double) -> GeodesicDirect {
        let azi1 = GeoMath.normalize(azimuth)
        let (salp1, calp1) = GeoMath.sincosd(GeoMath.round(azi1))
        var (sbet1, cbet1) = GeoMath.sincosd(GeoMath.round(GeoMath.fixLatitude(start.latitude)))
        sbet1 *= f1
        GeoMath.norm(&sbet1, &cbet1)
        cbet1 = max(GeoMath.tiny, cbet1)
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        let comg1 = csig1
        GeoMath.norm(&ssig1, &csig1)
        let k2 = calp0 * calp0 * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let a1m1 = Geodesic.a1m1(eps)
        let c1a = Geodesic.c1(eps)
        let b11 = Geodesic.series(ssig1, csig1, c1a, 6)
        let s = sin(b11)
        let c = cos(b11)
        let stau1 = ssig1 * c + csig1 * s
        let ctau1 = csig1 * c - ssig1 * s
        let c1pa = Geodesic.c1p(eps)
        let a3c = -f * salp0 * a3(eps)
        let c3a = c3(eps)
        let b31 = Geodesic.series(ssig1, csig1, c3a, 5)

        let tau12 = distance / (b * (1 + a1m1))
        let st = sin(tau12)
        let ct = cos(tau12)
        let b12 = -Geodesic.series(stau1 * ct + ctau1 * st, ctau1 * ct - stau1 * st, c1pa, 6)
        let sig12 = tau12 - (b12 - b11)
        let ssig12 = sin(sig12)
        let csig12 = cos(sig12)
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        let sbet2 = calp0 * ssig2
        var cbet2 = hypot(salp0, calp0 * csig2)
        if cbet2 == 0 {
            cbet2 = GeoMath.tiny
            csig2 = GeoMath.tiny
        }
        let salp2 = salp0
        let calp2 = calp0 * csig2
        let somg2 = salp0 * ssig2
        let comg2 = csig2
        let e = copysign(1.0, salp0)
        let omg12 =
            e
            * (sig12 - (atan2(ssig2, csig2) - atan2(ssig1, csig1))
                + (atan2(e * somg2, comg2) - atan2(e * somg1, comg1)))
        let lam12 = omg12 + a3c * (sig12 + (Geodesic.series(ssig2, csig2, c3a, 5) - b31))
        let lon12 = lam12 * 180 / .pi
        let lon2 = GeoMath.normalize(GeoMath.normalize(start.longitude) + GeoMath.normalize(lon12))
        let lat2 = GeoMath.atan2d(sbet2, f1 * cbet2)
        return GeodesicDirect(
            point: GeoPoint(latitude: lat2, longitude: lon2), finalAzimuth: GeoMath.atan2d(salp2, calp2))
    }
}
