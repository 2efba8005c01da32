/// The boat's track over the last hours, in memory of a fixed size: a fix is kept when the boat has moved a spacing
/// from the last one kept, or turned; when the log is full, every second point of its older half goes (the old track
/// gets coarser, the hours stay); points older than the hours go. A gap in the fixes longer than ``gap`` starts a new
/// segment, so the chart never draws a line across a stretch it did not see.
///
/// A point is 16 bytes (time as seconds on the log's clock in a `Float`, a millisecond's resolution over a day;
/// positions in ten-millionths of a degree, about a centimetre), so 8,192 points are 128 KB.
public struct TrackLog: Sendable {
    public struct Point: Hashable, Sendable {
        /// Seconds on the caller's clock (the engine's), less the log's epoch.
        var offset: Float
        var latitude: Int32
        var longitude: Int32
        /// The first point of a segment (after a gap in the fixes, or the first of all).
        public var startsSegment: Bool

        public var position: GeoPoint {
            GeoPoint(latitude: Double(latitude) / 10_000_000, longitude: Double(longitude) / 10_000_000)
        }
    }

    /// Hours of track kept.
    public let hours: Double
    /// Points at most.
    public let capacity: Int
    /// Metres the boat moves before a fix is kept (less when it turns: ``turn``).
    public let spacing: Double
    /// Degrees of turn from the last leg after which a fix is kept once the boat has moved a fifth of the spacing.
    public let turn: Double
    /// Seconds without a fix after which the next one starts a new segment.
    public let gap: Double
    public private(set) var points: [Point] = []
    /// The clock's time of offset 0.
    public private(set) var epoch: Double?
    /// Counts every change (a point kept, the log thinned or cleared), for a consumer that copies it only then.
    public private(set) var revision = 0
    private var lastFixTime = -Double.infinity
    private var lastBearing: Double?

    public init(hours: Double = 24, capacity: Int = 8192, spacing: Double = 10, turn: Double = 15, gap: Double = 60) {
        self.hours = hours
        self.capacity = max(16, capacity)
        self.spacing = spacing
        self.turn = turn
        self.gap = gap
        points.reserveCapacity(self.capacity)
    }

    /// The time of a point on the caller's clock.
    public func time(of point: Point) -> Double { (epoch ?? 0) + Double(point.offset) }

    /// A fix at `time`; true when it was kept.
    @discardableResult
    public mutating func add(_ position: GeoPoint, at time: Double) -> Bool {
        guard position.latitude.isFinite, position.longitude.isFinite, abs(position.latitude) <= 90,
            abs(position.longitude) <= 180
        else { return false }
        defer { lastFixTime = time }
        let epoch = self.epoch ?? time
        self.epoch = epoch
        let afterGap = time - lastFixTime > gap || time < lastFixTime
        var keep = afterGap || points.isEmpty
        var bearing: Double?
        if !keep, let last = points.last {
            let leg = Geodesic.wgs84.inverse(last.position, position)
            bearing = leg.initialAzimuth
            if leg.distance >= spacing {
                keep = true
            } else if leg.distance >= spacing / 5, let lastBearing {
                var change = (leg.initialAzimuth - lastBearing).truncatingRemainder(dividingBy: 360)
                if change > 180 { change -= 360 }
                if change < -180 { change += 360 }
                keep = change.magnitude >= turn
            }
        }
        dropOld(before: time - hours * 3600)
        guard keep else { return false }
        if points.count >= capacity { thin() }
        lastBearing = afterGap ? nil : bearing
        points.append(
            Point(
                offset: Float(time - epoch), latitude: Int32((position.latitude * 10_000_000).rounded()),
                longitude: Int32((position.longitude * 10_000_000).rounded()), startsSegment: afterGap || points.isEmpty
            ))
        revision &+= 1
        return true
    }

    /// Forgets the track (the crew cleared it).
    public mutating func clear() {
        points.removeAll(keepingCapacity: true)
        lastBearing = nil
        lastFixTime = -.infinity
        revision &+= 1
    }

    /// Every second point of the older half goes (a segment's first point stays, so no two segments join).
    private mutating func thin() {
        let half = points.count / 2
        var kept = 0
        for index in 0..<points.count {
            if index >= half || index % 2 == 0 || points[index].startsSegment {
                points[kept] = points[index]
                kept += 1
            }
        }
        points.removeLast(points.count - kept)
        revision &+= 1
    }

    private mutating func dropOld(before limit: Double) {
        guard let epoch, let first = points.first, epoch + Double(first.offset) < limit else { return }
        var index = 0
        while index < points.count && epoch + Double(points[index].offset) < limit { index += 1 }
        points.removeFirst(index)
        if !points.isEmpty { points[0].startsSegment = true }
        revision &+= 1
    }
}
