import Marine
import NMEA

/// Position fixes no boat could have reached from the one before, refused before anything is computed from them.
extension Engine {
    /// Whether `source`'s fix at `point`, arrived at `time`, is taken (``PositionGate``).
    mutating func admitsFix(at point: GeoPoint, from source: SourceID, at time: Double) -> Bool {
        guard configuration.gatesPositions else { return true }
        guard let index = positionGates.firstIndex(where: { $0.source == source }) else {
            var gate = PositionGate()
            let admitted = gate.admits(point, at: time)
            positionGates.append((source, gate))
            return admitted
        }
        return positionGates[index].gate.admits(point, at: time)
    }

    /// `source`'s next fix taken wherever it is: a recording that starts again.
    public mutating func forgetFixes(from source: SourceID) {
        guard let index = positionGates.firstIndex(where: { $0.source == source }) else { return }
        positionGates[index].gate.forget()
    }

    /// Fixes refused as out of a boat's reach, over every input.
    public var positionsRefused: Int { positionGates.reduce(0) { $0 + $1.gate.refused } }
}

extension Message {
    /// The position a usable RMC, GGA or GLL fixes, if it has one.
    var fixPoint: GeoPoint? {
        guard isUsable else { return nil }
        let latitude: Double?
        let longitude: Double?
        switch self {
        case .rmc(let rmc): (latitude, longitude) = (rmc.latitude, rmc.longitude)
        case .gga(let gga): (latitude, longitude) = (gga.latitude, gga.longitude)
        case .gll(let gll): (latitude, longitude) = (gll.latitude, gll.longitude)
        default: return nil
        }
        guard let latitude, let longitude else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }
}
