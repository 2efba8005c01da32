import Marine

/// A History API v2 request (`/signalk/v2/api/history/values`, signalk-server's `docs/develop/rest-api/history_api.md`):
/// the paths and how each is aggregated, the time range and the resolution; and the aggregation of the minutes read
/// back into its answer. Bounded: at most ``largestPaths`` paths, a year, and ``largestCells`` buckets times paths.
public struct HistoryQuery: Hashable, Sendable {
    public enum Method: String, Hashable, Sendable, CaseIterable {
        case average, min, max, first, last, mid
        case middleIndex = "middle_index"
        case sma, ema
    }

    public struct Column: Hashable, Sendable {
        public var path: String
        public var method: Method
        /// sma's window in buckets, ema's alpha.
        public var parameter: Double?
    }

    public var columns: [Column]
    /// Another vessel's context (one heard on AIS); nil for this boat.
    public var context: String?
    public var from: Double
    public var to: Double
    public var resolution: Double

    public static let largestPaths = 20
    public static let largestCells = 20_000
    public static let longestRange = 366 * 86_400.0

    public var buckets: Int { Int(((to - from) / resolution).rounded(.up)) }

    /// The query, or the words of a 400. `now` is the gateway's clock (`to` when none is given).
    /// `kept` is the paths that may be asked for (``HistoryBlock/paths(of:)``, or a vessel's ``HistoryBlock/vesselPaths``).
    public static func parse(
        _ query: [(String, String)], now: Double, kept: [String] = HistoryBlock.paths
    ) -> Result<HistoryQuery, ResourceError> {
        func value(_ name: String) -> String? { query.first { $0.0 == name }?.1 }
        guard let pathsText = value("paths"), !pathsText.isEmpty else {
            return .failure(ResourceError("paths: one or more paths, comma separated (path[:method[:parameter]])"))
        }
        var columns: [Column] = []
        for item in pathsText.split(separator: ",", omittingEmptySubsequences: false) {
            guard columns.count < largestPaths else {
                return .failure(ResourceError("paths: at most \(largestPaths)"))
            }
            let parts = item.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count <= 3, kept.contains(parts[0]) else {
                return .failure(
                    ResourceError(
                        "paths: \(String(parts[0].prefix(80))) is not kept; these are: "
                            + kept.joined(separator: ", ")))
            }
            let method: Method
            if parts.count >= 2 {
                guard let named = Method(rawValue: parts[1]) else {
                    return .failure(ResourceError("paths: \(parts[1].prefix(20)) is not an aggregate"))
                }
                method = named
            } else {
                method = parts[0] == "navigation.position" ? .first : .average
            }
            var parameter: Double?
            if parts.count == 3 {
                guard let number = Double(parts[2]), number.isFinite,
                    method == .sma
                        ? number >= 1 && number <= 1000 && number == number.rounded()
                        : method == .ema && number > 0 && number <= 1
                else { return .failure(ResourceError("paths: sma takes 1 to 1000 buckets, ema an alpha in (0, 1]")) }
                parameter = number
            }
            columns.append(Column(path: parts[0], method: method, parameter: parameter))
        }
        var duration: Double?
        if let text = value("duration") {
            guard let seconds = Self.seconds(text), seconds > 0, seconds <= longestRange else {
                return .failure(
                    ResourceError("duration: seconds, or an ISO 8601 duration (PT15M, P1D), at most a year"))
            }
            duration = seconds
        }
        var from: Double?
        var to: Double?
        if let text = value("from") {
            guard let time = SignalKTime.unixTime(text) else {
                return .failure(ResourceError("from: an ISO 8601 time"))
            }
            from = time
        }
        if let text = value("to") {
            guard let time = SignalKTime.unixTime(text) else { return .failure(ResourceError("to: an ISO 8601 time")) }
            to = time
        }
        // Any two of from, to and duration; duration alone is back from now; from alone is up to now. (If-chains: a
        // switch over a tuple of optionals once matched nothing in Embedded Swift.)
        if let length = duration {
            if let start = from, to == nil {
                to = start + length
            } else if let end = to, from == nil {
                from = end - length
            } else if from == nil && to == nil {
                to = now
                from = now - length
            }
        } else if from != nil && to == nil {
            to = now
        } else if from == nil {
            return .failure(ResourceError("from or duration: the range is not said"))
        }
        guard let start = from, let end = to, end > start, end - start <= longestRange else {
            return .failure(ResourceError("from, to: from before to, at most a year apart"))
        }
        var resolution: Double
        if let text = value("resolution") {
            guard let seconds = Self.seconds(text), seconds >= 1, seconds <= longestRange else {
                return .failure(ResourceError("resolution: seconds (at least 1) or 1s, 1m, 1h, 1d"))
            }
            resolution = seconds
        } else {
            // About 500 rows, in whole seconds.
            resolution = max(1, ((end - start) / 500).rounded(.up))
        }
        var query = HistoryQuery(columns: columns, context: nil, from: start, to: end, resolution: resolution)
        guard query.buckets * columns.count <= largestCells else {
            return .failure(
                ResourceError(
                    "resolution: \(query.buckets) rows of \(columns.count) paths is more than \(largestCells) values; "
                        + "ask for a coarser resolution"))
        }
        query.resolution = resolution
        return .success(query)
    }

    /// `90`, `1.5`, `30s`, `5m`, `2h`, `1d`, or an ISO 8601 duration (`PT15M`, `P1DT2H`, `PT0.5S`); nil otherwise.
    public static func seconds(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.count <= 32 else { return nil }
        if let plain = Double(text), plain.isFinite { return plain }
        let units: [(Character, Double)] = [("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)]
        if let last = text.last, let unit = units.first(where: { $0.0 == last }),
            let number = Double(String(text.dropLast())), number.isFinite
        {
            return number * unit.1
        }
        guard text.hasPrefix("P") else { return nil }
        var total = 0.0
        var number = ""
        var inTime = false
        for character in text.dropFirst() {
            if character == "T" {
                inTime = true
                continue
            }
            // ASCII digits only (no Unicode tables on the Pi's Embedded Swift).
            if let ascii = character.asciiValue, (ascii >= 48 && ascii <= 57) || ascii == 46 {
                number.append(character)
                continue
            }
            guard let value = Double(number), value.isFinite else { return nil }
            number = ""
            switch (character, inTime) {
            case ("D", false): total += value * 86_400
            case ("W", false): total += value * 7 * 86_400
            case ("H", true): total += value * 3600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return nil
            }
        }
        return number.isEmpty ? total : nil
    }
}
