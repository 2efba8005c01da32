import SignalK

/// What a race office takes away: a boat's track as GPX 1.1 (every point kept, its time in UTC), read by any
/// plotter, OpenCPN or gpxpy.
public enum FleetExport {
    public static func gpx(boat: String, points: [(Double, Double, Double)]) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Telltale fleet" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><name>\(boat)</name><trkseg>

            """
        for (time, latitude, longitude) in points {
            out += "<trkpt lat=\"\(fixed(latitude, 7))\" lon=\"\(fixed(longitude, 7))\"><time>"
            out += SignalKTime.text(unixTime: time) + "</time></trkpt>\n"
        }
        out += "</trkseg></trk>\n</gpx>\n"
        return out
    }

    /// `value` with `places` decimals, without Foundation.
    static func fixed(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int64(scaled / scale)
        var fraction = String(Int64(scaled) - whole * Int64(scale))
        while fraction.count < places { fraction = "0" + fraction }
        return (value < 0 && scaled > 0 ? "-" : "") + String(whole) + (places > 0 ? "." + fraction : "")
    }
}
