/// The inverse problem: distance and azimuths between two points (Karney 2013, section 4).
extension Geodesic {
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

        let r = Reduced(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2)
        var s12x = 0.0
        var salp1 = 0.0
        var calp1 = 0.0
        var salp2 = 0.0
        var calp2 = 0.0
        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            // Along a meridian the azimuths are known; only the distance is solved (unless it is not the shortest).
            if let distance = meridianDistance(r, clam12) {
                (s12x, salp1, calp1, salp2, calp2) = (distance, slam12, clam12, 0, 1)
            } else {
                meridian = false
            }
        }
        if !meridian && sbet1 == 0 && (f <= 0 || lon12s >= f * 180) {
            // Along the equator.
            (s12x, salp1, calp1, salp2, calp2) = (a * lam12, 1, 0, 1, 0)
        } else if !meridian {
            let start = inverseStart(sbet1, cbet1, dn1, sbet2, cbet2, dn2, lam12, slam12, clam12)
            if start.sig12 >= 0 {
                // Short line: the starting guess is the answer.
                (s12x, salp1, calp1, salp2, calp2) = (
                    start.sig12 * b * start.dnm, start.salp1, start.calp1, start.salp2, start.calp2
                )
            } else {
                (s12x, salp1, calp1, salp2, calp2) = solve(r, start.salp1, start.calp1, slam12, clam12)
            }
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

    /// The two points on the auxiliary sphere: their reduced latitudes' sines and cosines, and `dn`.
    struct Reduced {
        var sbet1: Double
        var cbet1: Double
        var dn1: Double
        var sbet2: Double
        var cbet2: Double
        var dn2: Double
    }

    /// The distance along a meridian (azimuth `clam12`: 1 north, -1 south), nil when the meridian is not the
    /// shortest line (the points nearly antipodal).
    func meridianDistance(_ r: Reduced, _ clam12: Double) -> Double? {
        let ssig1 = r.sbet1
        let csig1 = clam12 * r.cbet1
        let ssig2 = r.sbet2
        let csig2 = r.cbet2
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
        let lengths = self.lengths(n, sig12, ssig1, csig1, r.dn1, ssig2, csig2, r.dn2)
        guard sig12 < 1 || lengths.m12b >= 0 else { return nil }
        return sig12 < 3 * GeoMath.tiny ? 0 : lengths.s12b * b
    }

    /// The azimuth at the first point found by Newton's method on λ12, kept in a bracket (bisected when Newton leaves
    /// it): the distance and both azimuths' sines and cosines.
    func solve(_ r: Reduced, _ salp1: Double, _ calp1: Double, _ slam12: Double, _ clam12: Double)
        -> (s12: Double, salp1: Double, calp1: Double, salp2: Double, calp2: Double)
    {
        var salp1 = salp1
        var calp1 = calp1
        var tripn = false
        var tripb = false
        var salp1a = GeoMath.tiny
        var calp1a = 1.0
        var salp1b = GeoMath.tiny
        var calp1b = -1.0
        var result = lambda12(r.sbet1, r.cbet1, r.dn1, r.sbet2, r.cbet2, r.dn2, salp1, calp1, slam12, clam12, true)
        var numit = 0
        while numit < Geodesic.maxit2 {
            result = lambda12(
                r.sbet1, r.cbet1, r.dn1, r.sbet2, r.cbet2, r.dn2, salp1, calp1, slam12, clam12, numit < Geodesic.maxit1)
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
            result.eps, result.sig12, result.ssig1, result.csig1, r.dn1, result.ssig2, result.csig2, r.dn2)
        return (lengths.s12b * b, salp1, calp1, result.salp2, result.calp2)
    }

    func lengths(
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

    struct Lambda {
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

    func lambda12(
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
}
