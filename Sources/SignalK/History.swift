import Marine

/// What the instrument panel plots, kept by the server so that a phone that joins late sees the last hour too:
/// true wind speed and direction over 60 minutes in 10-second buckets, heel over 5 minutes a second at a time, and
/// the sparklines of boat speed, depth and VMG over 3 minutes a second at a time (``tracePaths``).
///
/// Fed from the model's current values at each update (``record(_:at:)``); a quantity with no current value leaves
/// its bucket empty (`null` in the JSON), never a made-up zero. Wind direction is averaged as a vector, so a bucket
/// across north is north, not south. Fixed-size rings: memory does not grow with time.
public struct History: Sendable {
    public static let windBucket = 10.0
    public static let windBuckets = 360
    public static let heelSeconds = 300
    /// The paths whose last ``traceSeconds`` the panel's tiles draw as sparklines.
    public static let tracePaths = [
        "navigation.speedThroughWater", "environment.depth.belowTransducer", "environment.depth.belowSurface",
        "performance.velocityMadeGood",
    ]
    public static let traceSeconds = 180

    /// A sample a second (the newest of the second), gaps left empty.
    struct PerSecond: Sendable {
        private(set) var ring: Ring
        private var last: Double?

        init(capacity: Int) { ring = Ring(capacity: capacity) }

        mutating func record(_ value: Double?, at time: Double) {
            guard let last else {
                ring.append(value)
                self.last = time
                return
            }
            let seconds = Int((time - last).rounded(.down))
            guard seconds >= 1 else { return }
            for _ in 1..<min(seconds, ring.values.count) { ring.append(nil) }
            ring.append(value)
            self.last = last + Double(seconds)
        }
    }

    struct Ring: Sendable {
        private(set) var values: [Double?]
        private var next = 0
        private(set) var count = 0

        init(capacity: Int) { values = Array(repeating: nil, count: capacity) }

        mutating func append(_ value: Double?) {
            values[next] = value
            next = (next + 1) % values.count
            count = min(count + 1, values.count)
        }

        /// Oldest first.
        var ordered: [Double?] {
            let start = (next - count + values.count) % values.count
            return (0..<count).map { values[(start + $0) % values.count] }
        }
    }

    /// A bucket being filled: sums of speed and of the direction's unit vector.
    private struct Bucket: Sendable {
        var speed = 0.0
        var speeds = 0
        var east = 0.0
        var north = 0.0
        var directions = 0
    }

    private(set) var speed = Ring(capacity: windBuckets)
    private(set) var direction = Ring(capacity: windBuckets)
    private(set) var heel = PerSecond(capacity: heelSeconds)
    private(set) var traces = tracePaths.map { _ in PerSecond(capacity: traceSeconds) }
    private var bucket = Bucket()
    private var bucketStart: Double?
    /// The heel alarms' thresholds in degrees of mean heel (the engine's configuration), for the panel's heel gauge.
    public var overHeel: Double?
    public var underHeel: Double?
    /// The time of the newest sample, on the model's clock.
    public private(set) var latest: Double?

    public init() {}

    /// One sample; nil for a quantity that has no current value. `traces` in the order of ``tracePaths``.
    public mutating func record(
        trueWindSpeed: Double?, direction radians: Double?, heel roll: Double?, traces values: [Double?] = [],
        at time: Double
    ) {
        latest = time
        heel.record(roll, at: time)
        for index in traces.indices { traces[index].record(index < values.count ? values[index] : nil, at: time) }
        // Wind: 10-second buckets, closed when a sample falls past their end (empty ones for a gap).
        let start = bucketStart ?? time
        if time - start >= Self.windBucket {
            close()
            let skipped = Int(((time - start) / Self.windBucket).rounded(.down)) - 1
            for _ in 0..<min(max(skipped, 0), Self.windBuckets) {
                speed.append(nil)
                direction.append(nil)
            }
            bucketStart = start + Double(skipped + 1) * Self.windBucket
        } else if bucketStart == nil {
            bucketStart = time
        }
        if let value = trueWindSpeed, value.isFinite {
            bucket.speed += value
            bucket.speeds += 1
        }
        if let value = radians, value.isFinite {
            bucket.east += sin(value)
            bucket.north += cos(value)
            bucket.directions += 1
        }
    }

    private mutating func close() {
        speed.append(bucket.speeds > 0 ? bucket.speed / Double(bucket.speeds) : nil)
        if bucket.directions > 0 && (bucket.east != 0 || bucket.north != 0) {
            var mean = atan2(bucket.east, bucket.north)
            if mean < 0 { mean += 2 * Double.pi }
            direction.append(mean)
        } else {
            direction.append(nil)
        }
        bucket = Bucket()
    }

    /// The closed buckets, oldest first: true wind speed (m/s) and direction (rad).
    public var trueWindSpeed: [Double?] { speed.ordered }
    public var trueWindDirection: [Double?] { direction.ordered }
    /// Heel (roll, rad, positive starboard down), a sample a second, oldest first.
    public var heelSamples: [Double?] { heel.ring.ordered }
    /// A trace path's samples, a second apart, oldest first.
    public func trace(_ path: String) -> [Double?] {
        Self.tracePaths.firstIndex(of: path).map { traces[$0].ring.ordered } ?? []
    }

    /// The JSON served at `/telltale/v1/history`.
    public func json() -> String {
        var json = JSONWriter()
        json.beginObject(nil)
        json.value("windInterval", Self.windBucket)
        json.value("heelInterval", 1.0)
        func series(_ key: String, _ values: [Double?]) {
            json.beginArray(key)
            for value in values {
                if let value { SignalKValue.number(value).write(nil, to: &json) } else { json.null(nil) }
            }
            json.endArray()
        }
        series("speedTrue", trueWindSpeed)
        series("directionTrue", trueWindDirection)
        series("roll", heelSamples)
        json.beginObject("heelAlarm")
        if let overHeel { json.value("over", overHeel) } else { json.null("over") }
        if let underHeel { json.value("under", underHeel) } else { json.null("under") }
        json.endObject()
        json.value("traceInterval", 1.0)
        json.beginObject("traces")
        for path in Self.tracePaths { series(path, trace(path)) }
        json.endObject()
        json.endObject()
        return json.text
    }
}

extension SignalKModel {
    /// The current value of a numeric path (any source; the computed one first).
    public func current(_ path: String) -> Double? {
        guard let list = entries[path] else { return nil }
        let ordered =
            list.filter { $0.source == Self.computedSource } + list.filter { $0.source != Self.computedSource }
        for entry in ordered { if case .number(let value) = entry.value { return value } }
        return nil
    }

    /// The current roll (heel), rad.
    public var currentRoll: Double? {
        for entry in entries["navigation.attitude"] ?? [] {
            if case .attitude(let roll, _, _) = entry.value, let roll { return roll }
        }
        return nil
    }
}
