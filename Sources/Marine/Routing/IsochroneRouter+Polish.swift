extension IsochroneRouter {
    /// The waypoints moved and thinned while that makes the passage faster: each turn in turn nudged north, south,
    /// east and west (from a quarter of its shorter leg down to 50 m), and dropped where the straight leg past it is
    /// no slower. The isochrones' grid of headings and sectors leaves legs a few degrees off the best angle and a
    /// tack or two too many; sailing the legs again settles them. No leg is moved onto land.
    mutating func polished(_ given: [GeoPoint], departure: Double) -> [GeoPoint] {
        var points = given
        guard points.count > 2, var best = (try? resail(points, departure: departure))?.arrival else { return points }
        var index = 1
        while index < points.count - 1 {
            var thinner = points
            thinner.remove(at: index)
            if !land.crossesLand(thinner[index - 1], thinner[index]),
                let arrival = (try? resail(thinner, departure: departure))?.arrival, arrival <= best
            {
                points = thinner
                best = arrival
            } else {
                index += 1
            }
        }
        for _ in 0..<8 {
            var moved = false
            for index in 1..<max(1, points.count - 1) {
                let before = Self.leg(points[index - 1], points[index]).distance
                let after = Self.leg(points[index], points[index + 1]).distance
                var step = min(before, after) / 4
                while step >= 50 {
                    var improved = false
                    for bearing in [0.0, 90, 180, 270] {
                        var trial = points
                        trial[index] = Self.moved(points[index], bearing: bearing, metres: step)
                        guard !land.isLand(trial[index]), !land.crossesLand(trial[index - 1], trial[index]),
                            !land.crossesLand(trial[index], trial[index + 1]),
                            let arrival = (try? resail(trial, departure: departure))?.arrival, arrival < best - 0.5
                        else { continue }
                        points = trial
                        best = arrival
                        improved = true
                        moved = true
                    }
                    if !improved { step /= 2 }
                }
            }
            if !moved { break }
        }
        return points
    }
}
