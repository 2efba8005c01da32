/// Finding stations in harmonics files by name and by place: what `telltale tide` and the gateway ask.
public enum TideSearch {
    /// A station of one of several files: which file (its index in the list searched) and its entry.
    public struct Candidate: Sendable {
        public let file: Int
        public let entry: HarmonicsFile.Entry

        public init(file: Int, entry: HarmonicsFile.Entry) {
            self.file = file
            self.entry = entry
        }
    }

    public enum NameMatch: Sendable {
        case found(Candidate)
        /// The name is part of several stations' names: them (the first of them, by name).
        case ambiguous([Candidate])
        case none
    }

    /// The station `query` names: the one named exactly so (letter case aside; the first file's when several files
    /// have it, a sailor's own file being searched first), else the one with that identifier (NOAA's `8443970`),
    /// else the only one whose name holds it.
    public static func named(_ query: String, in candidates: [Candidate]) -> NameMatch {
        let wanted = Latin1.folded(query.trimmingSpaces)
        guard !wanted.isEmpty else { return .none }
        var partial: [Candidate] = []
        for candidate in candidates {
            let name = Latin1.folded(candidate.entry.name)
            if name == wanted { return .found(candidate) }
            if contains(name, wanted) { partial.append(candidate) }
        }
        if let identified = candidates.first(where: { Latin1.folded($0.entry.stationID) == wanted }) {
            return .found(identified)
        }
        if partial.count == 1 { return .found(partial[0]) }
        if partial.isEmpty { return .none }
        return .ambiguous(partial.sorted { $0.entry.name < $1.entry.name })
    }

    /// XTide's rule: a current station's name ends in " Current" or holds " Current " (a depth after it).
    public static func isCurrentName(_ name: String) -> Bool {
        name.hasSuffix(" Current") || contains(Array(name.utf8), Array(" Current ".utf8))
    }

    static func contains(_ text: [UInt8], _ part: [UInt8]) -> Bool {
        guard part.count <= text.count else { return false }
        var start = 0
        while start + part.count <= text.count {
            var index = 0
            while index < part.count, text[start + index] == part[index] { index += 1 }
            if index == part.count { return true }
            start += 1
        }
        return false
    }

    /// The `count` candidates nearest `point`, with their distance in metres (WGS84 geodesics), nearest first;
    /// only those within `limit` metres when one is given.
    public static func nearest(
        _ point: GeoPoint, in candidates: [Candidate], count: Int, limit: Double? = nil
    ) -> [(candidate: Candidate, distance: Double)] {
        // Ranked first on a flat approximation (metres, good to a few per cent here), then measured properly.
        let metresPerDegree = 111_320.0
        let shrink = cos(point.latitude * Double.pi / 180)
        var ranked: [(index: Int, rough: Double)] = []
        ranked.reserveCapacity(candidates.count)
        for (index, candidate) in candidates.enumerated() {
            var east = candidate.entry.longitude - point.longitude
            if east > 180 { east -= 360 }
            if east < -180 { east += 360 }
            let north = (candidate.entry.latitude - point.latitude) * metresPerDegree
            let rough = (north * north + east * east * shrink * shrink * metresPerDegree * metresPerDegree).squareRoot()
            if let limit, rough > limit * 1.2 + 2000 { continue }
            ranked.append((index, rough))
        }
        ranked.sort { $0.rough < $1.rough }
        var out: [(candidate: Candidate, distance: Double)] = []
        for (index, _) in ranked.prefix(count * 2 + 4) {
            let candidate = candidates[index]
            let distance = Geodesic.wgs84.inverse(
                point, GeoPoint(latitude: candidate.entry.latitude, longitude: candidate.entry.longitude)
            ).distance
            if let limit, distance > limit { continue }
            out.append((candidate, distance))
        }
        out.sort { $0.distance < $1.distance }
        return Array(out.prefix(count))
    }
}

extension String {
    /// Without leading and trailing spaces.
    var trimmingSpaces: String {
        var bytes = Array(utf8)
        while bytes.last == 0x20 { bytes.removeLast() }
        while bytes.first == 0x20 { bytes.removeFirst() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
