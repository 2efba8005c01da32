/// The forecasts on board (one grid per GRIB file imported), and which of them speaks for a place and a time.
///
/// Of the grids that cover the place and the time, the latest model run wins; of two from the same run, the finer
/// grid. A grid that ended before the time is out of date, one that starts after it is not yet valid, one that does
/// not reach the place is elsewhere: none of those is used, and ``use(of:at:time:)`` says which it is.
public struct Forecast: Sendable {
    public private(set) var grids: [ForecastGrid]

    public init(grids: [ForecastGrid] = []) { self.grids = grids }

    public var isEmpty: Bool { grids.isEmpty }

    /// Why a grid is or is not the one used.
    public enum Use: Hashable, Sendable {
        case used
        /// Another grid covers the place and time from a later run, or finer.
        case superseded
        /// Its last time (UNIX seconds) is before the time asked for.
        case outOfDate(ended: Double)
        /// Its first time is after the time asked for.
        case notYet(starts: Double)
        /// It does not cover the place.
        case elsewhere
        /// No position is known to judge it by.
        case noPosition
    }

    /// The index of the grid that speaks for `point` at `time` (UNIX seconds), if any does: of the weather's grids,
    /// or (`ocean`) of those that carry the sea's current. An ocean model's grid never stands in for the weather's.
    public func chosen(at point: GeoPoint, time: Double, ocean: Bool = false) -> Int? {
        var best: Int?
        for (index, grid) in grids.enumerated()
        where grid.covers(time: time) && grid.covers(point) && (ocean ? grid.hasOcean : grid.hasWeather) {
            guard let current = best else {
                best = index
                continue
            }
            let other = grids[current]
            if grid.runTime > other.runTime
                || (grid.runTime == other.runTime && grid.rowStep * grid.columnStep < other.rowStep * other.columnStep)
            {
                best = index
            }
        }
        return best
    }

    /// What grid `index` is to a boat at `point` at `time`.
    public func use(of index: Int, at point: GeoPoint?, time: Double) -> Use {
        let grid = grids[index]
        if time > grid.times[grid.times.count - 1] { return .outOfDate(ended: grid.times[grid.times.count - 1]) }
        if time < grid.times[0] { return .notYet(starts: grid.times[0]) }
        guard let point else { return .noPosition }
        guard grid.covers(point) else { return .elsewhere }
        let used = chosen(at: point, time: time) == index || chosen(at: point, time: time, ocean: true) == index
        return used ? .used : .superseded
    }

    /// The forecast for `point` at `time` from the grid that speaks for them; nil when none does.
    /// The sea's current there and then, from the ocean grid that speaks for them.
    public func sample(at point: GeoPoint, time: Double) -> ForecastSample? {
        var sample = chosen(at: point, time: time).flatMap { grids[$0].sample(at: point, time: time) }
        if let current = current(at: point, time: time) {
            if sample == nil, let index = chosen(at: point, time: time, ocean: true) {
                sample = ForecastSample(time: time, runTime: grids[index].runTime)
            }
            sample?.currentEast = current.east
            sample?.currentNorth = current.north
        }
        return sample
    }

    /// The sea's surface current at `point` and `time`, m/s towards the east and the north; nil where no ocean
    /// forecast on board covers them.
    public func current(at point: GeoPoint, time: Double) -> (east: Double, north: Double)? {
        guard let index = chosen(at: point, time: time, ocean: true),
            let sample = grids[index].sample(at: point, time: time), let east = sample.currentEast,
            let north = sample.currentNorth
        else { return nil }
        return (east, north)
    }

    /// The valid times of every grid that covers `point`, merged and in order (the meteogram's columns), from
    /// `start` for `hours`.
    public func times(at point: GeoPoint, from start: Double, hours: Double) -> [Double] {
        var times: [Double] = []
        for grid in grids where grid.covers(point) {
            for time in grid.times where time >= start && time <= start + hours * 3600 && !times.contains(time) {
                times.append(time)
            }
        }
        times.sort()
        return times
    }
}
