import Marine

/// A local east/north plane in metres around a reference point, using the ellipsoid's radii of curvature there.
///
/// The simulator sails and measures its truth on this plane, independently of the geodesic code it is used to
/// test: over the few miles of a simulated voyage the plane and the ellipsoid differ by decimetres at most.
struct LocalPlane: Sendable {
    let origin: GeoPoint
    let metresPerDegreeNorth: Double
    let metresPerDegreeEast: Double

    init(origin: GeoPoint) {
        self.origin = origin
        let a = 6_378_137.0
        let f = 1 / 298.257_223_563
        let e2 = f * (2 - f)
        let phi = origin.latitude * .pi / 180
        let w = 1 - e2 * sin(phi) * sin(phi)
        let meridional = a * (1 - e2) / (w * w.squareRoot())
        let normal = a / w.squareRoot()
        metresPerDegreeNorth = meridional * .pi / 180
        metresPerDegreeEast = normal * cos(phi) * .pi / 180
    }

    func plane(_ point: GeoPoint) -> PlaneVector {
        PlaneVector(
            x: (point.latitude - origin.latitude) * metresPerDegreeNorth,
            y: (point.longitude - origin.longitude) * metresPerDegreeEast)
    }

    func point(_ vector: PlaneVector) -> GeoPoint {
        GeoPoint(
            latitude: origin.latitude + vector.x / metresPerDegreeNorth,
            longitude: origin.longitude + vector.y / metresPerDegreeEast)
    }
}
