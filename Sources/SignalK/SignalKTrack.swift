import Engine
import Marine

/// The boat's track as apps ask for it: `GET /signalk/v1/api/vessels/self/track`, a GeoJSON MultiLineString (one
/// line a segment, `[longitude, latitude]`) as @signalk/tracks-plugin serves it to Freeboard-SK, with `since` (UNIX
/// seconds) for the part after a moment, or `since=anchor` for the anchor's swing since it was dropped (nothing
/// while no anchor is set). Each position is written with six decimals (a tenth of a metre).
extension SignalKModel {
    public static let trackPath = "/signalk/v1/api/vessels/self/track"

    /// The track after `since` (UNIX seconds), all of it for nil.
    public func trackJSON(since: Double? = nil) -> String {
        var text = "{\"type\":\"MultiLineString\",\"coordinates\":["
        var open = false
        var firstLine = true
        var firstPoint = true
        for point in track.points {
            let time = track.time(of: point) + trackClockOffset
            if let since, time < since { continue }
            if point.startsSegment || !open {
                if open { text += "]" }
                text += firstLine ? "[" : ",["
                firstLine = false
                open = true
                firstPoint = true
            }
            let position = point.position
            text +=
                (firstPoint ? "[" : ",[") + FixedDecimal.text(position.longitude, decimals: 6) + ","
                + FixedDecimal.text(position.latitude, decimals: 6) + "]"
            firstPoint = false
        }
        if open { text += "]" }
        return text + "]}"
    }

    /// The track for a request's `since`: UNIX seconds, or `anchor`.
    public func trackJSON(since parameter: String?) -> String {
        guard let parameter else { return trackJSON() }
        if parameter == "anchor" {
            return trackJSON(since: swingFrom.map { $0 + trackClockOffset } ?? .infinity)
        }
        return trackJSON(since: Double(parameter))
    }
}
