import Marine

/// The buckets of a query, fed minute by minute; the answer's JSON at the end. Memory: one accumulator a bucket and
/// column, whatever the length of the history read.
public struct HistoryAggregator: Sendable {
    struct Cell: Sendable {
        var count = 0
        var sum = 0.0
        var x = 0.0
        var y = 0.0
        var low = Double.infinity
        var high = -Double.infinity
        var first: Double?
        var last: Double?
        var middle: Double?
        var middleDistance = Double.infinity
        /// The position's other half (longitude), by the same rules.
        var first2: Double?
        var last2: Double?
        var middle2: Double?
        var sum2 = 0.0
    }

    public let query: HistoryQuery
    /// The series the minutes were read with (``HistoryBlock/catalog(adding:)``).
    public let catalog: [HistoryBlock.Series]
    var cells: [Cell]

    public init(_ query: HistoryQuery, catalog: [HistoryBlock.Series] = HistoryBlock.series) {
        self.query = query
        self.catalog = catalog
        cells = Array(repeating: Cell(), count: query.buckets * query.columns.count)
    }

    /// The series indexes a column reads (the position: latitude and longitude).
    func series(_ path: String) -> [Int] {
        path == "navigation.position" ? [0, 1] : catalog.firstIndex { $0.path == path }.map { [$0] } ?? []
    }

    /// Whether a minute can hold anything the query asks for.
    public func wants(minute: Int64) -> Bool {
        let start = Double(minute) * 60
        return start + 60 > query.from && start <= query.to
    }

    public mutating func add(_ decoded: HistoryBlock.Decoded) {
        guard decoded.context == query.context else { return }
        let base = Double(decoded.minute) * 60
        let buckets = query.buckets
        for (column, asked) in query.columns.enumerated() {
            let indexes = series(asked.path)
            guard let index = indexes.first, index < decoded.values.count,
                indexes.allSatisfy({ $0 < decoded.values.count })
            else { continue }
            let isAngle = catalog[index].isAngle
            for second in 0..<60 {
                guard let value = decoded.values[index][second] else { continue }
                let time = base + Double(second)
                guard time >= query.from, time <= query.to else { continue }
                let bucket = min(buckets - 1, Int((time - query.from) / query.resolution))
                var cell = cells[bucket * query.columns.count + column]
                let other = indexes.count > 1 ? decoded.values[indexes[1]][second] : nil
                if indexes.count > 1 && other == nil { continue }
                cell.count += 1
                cell.sum += value
                if isAngle {
                    cell.x += cos(value)
                    cell.y += sin(value)
                }
                cell.low = Swift.min(cell.low, value)
                cell.high = Swift.max(cell.high, value)
                if cell.first == nil {
                    cell.first = value
                    cell.first2 = other
                }
                cell.last = value
                cell.last2 = other
                let middle = query.from + (Double(bucket) + 0.5) * query.resolution
                if abs(time - middle) < cell.middleDistance {
                    cell.middleDistance = abs(time - middle)
                    cell.middle = value
                    cell.middle2 = other
                }
                if let other { cell.sum2 += other }
                cells[bucket * query.columns.count + column] = cell
            }
        }
    }

    /// The answer, as signalk-server's History API gives it: `context`, `range`, `values`, and a row a bucket (its
    /// start time, then each column's value or null); the position as `[longitude, latitude]`.
    public func json(context: String) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.value("context", context)
        json.beginObject("range")
        json.value("from", SignalKTime.text(unixTime: query.from))
        json.value("to", SignalKTime.text(unixTime: query.to))
        json.endObject()
        json.beginArray("values")
        for column in query.columns {
            json.beginObject()
            json.value("path", column.path)
            json.value("method", column.method.rawValue)
            json.endObject()
        }
        json.endArray()
        let columns = query.columns.count
        // sma and ema run over each column's bucket averages.
        var smoothed: [[Double?]] = Array(repeating: [], count: columns)
        for (column, asked) in query.columns.enumerated() where asked.method == .sma || asked.method == .ema {
            var out: [Double?] = []
            var window: [Double] = []
            var running: Double?
            let size = Int(asked.parameter ?? 5)
            let alpha = asked.parameter ?? 0.2
            for bucket in 0..<query.buckets {
                guard let mean = average(cells[bucket * columns + column], path: asked.path) else {
                    out.append(nil)
                    continue
                }
                if asked.method == .sma {
                    window.append(mean)
                    if window.count > size { window.removeFirst() }
                    out.append(window.reduce(0, +) / Double(window.count))
                } else {
                    running = running.map { alpha * mean + (1 - alpha) * $0 } ?? mean
                    out.append(running)
                }
            }
            smoothed[column] = out
        }
        json.beginArray("data")
        for bucket in 0..<query.buckets {
            json.beginArray()
            json.value(nil, SignalKTime.text(unixTime: query.from + Double(bucket) * query.resolution))
            for (column, asked) in query.columns.enumerated() {
                let cell = cells[bucket * columns + column]
                if asked.path == "navigation.position" {
                    let pair: (Double?, Double?)
                    switch asked.method {
                    case .first: pair = (cell.first, cell.first2)
                    case .last: pair = (cell.last, cell.last2)
                    case .middleIndex: pair = (cell.middle, cell.middle2)
                    default:
                        pair =
                            cell.count > 0
                            ? (cell.sum / Double(cell.count), cell.sum2 / Double(cell.count)) : (nil, nil)
                    }
                    if let latitude = pair.0, let longitude = pair.1 {
                        json.raw(
                            nil,
                            "[" + FixedDecimal.text(longitude, decimals: 7) + ","
                                + FixedDecimal.text(latitude, decimals: 7) + "]")
                    } else {
                        json.null(nil)
                    }
                    continue
                }
                let value: Double?
                switch asked.method {
                case .average: value = average(cell, path: asked.path)
                case .min: value = cell.count > 0 ? cell.low : nil
                case .max: value = cell.count > 0 ? cell.high : nil
                case .first: value = cell.first
                case .last: value = cell.last
                case .mid: value = cell.count > 0 ? (cell.low + cell.high) / 2 : nil
                case .middleIndex: value = cell.middle
                case .sma, .ema: value = smoothed[column][bucket]
                }
                json.value(nil, value.map { ($0 * 1e6).rounded() / 1e6 })
            }
            json.endArray()
        }
        json.endArray()
        json.endObject()
        return json.text
    }

    /// The mean of a bucket: as a vector for an angle (north is the mean of 359° and 1°), in the range the path uses
    /// (0 to 2π for a direction, ±π for a relative angle).
    func average(_ cell: Cell, path: String) -> Double? {
        guard cell.count > 0 else { return nil }
        guard let index = series(path).first, catalog[index].isAngle else {
            return cell.sum / Double(cell.count)
        }
        let angle = atan2(cell.y, cell.x)
        // A relative angle (apparent or true wind angle, rudder angle) is signed; a direction is not.
        let name = path.split(separator: ".").last.map(String.init) ?? path
        let signed = name.hasPrefix("angle") || name.hasSuffix("Angle")
        return signed || angle >= 0 ? angle : angle + 2 * Double.pi
    }
}
