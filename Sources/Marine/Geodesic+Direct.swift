/// The direct problem: where a geodesic of a given azimuth and length ends.
extension Geodesic {
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
