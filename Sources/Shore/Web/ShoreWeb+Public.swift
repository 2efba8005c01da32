import Fleet
import Gateway
import Marine
import SignalK

/// The public race page (`--public-delay MINUTES`, off by default): the one thing a shore with accounts shows to anyone,
/// `/race.html` and its JSON, `GET /telltale/v1/fleet/public`. Only the boats of the fleet file, only where they were
/// that many minutes ago (their last position then, and their half hour before it), with their names, sail numbers
/// and classes: nothing live, no alarm, no value, no boat that is not entered. Read from the store every 10 s.
extension ShoreWeb {
    /// What the door opens to everyone when the race page is on: the page, its script, Leaflet, the delayed JSON.
    static let publicPaths: Set<String> = [
        "/race.html", "/race.js", "/leaflet/leaflet.js", "/leaflet/leaflet.css", "/telltale/v1/fleet/public",
    ]

    /// The delayed fleet as JSON, from the store at `unix`.
    func publicFleet(delay: Double, at unix: Double) -> String {
        let then = unix - delay
        let boats = entries.map(\.boat)
        let tracks =
            boats.isEmpty ? [] : (try? store.tracks(from: then - 1800, to: then, boats: boats, perBoat: 60)) ?? []
        var out = JSONWriter()
        out.beginObject()
        out.value("delay", delay)
        out.value("time", SignalKTime.text(unixTime: then))
        out.beginArray("boats")
        for (boat, track) in tracks {
            // The minute track keeps a minute's last point, which may be after `then`: never shown before its time.
            let points = track.filter { $0.0 <= then }
            guard let entry = entries.first(where: { $0.boat == boat }), let last = points.last else { continue }
            out.beginObject()
            out.value("id", boat)
            out.value("name", entry.name)
            out.value("sail", entry.sail)
            out.value("class", entry.group)
            if let colour = entry.colour { out.value("colour", colour) }
            out.value("latitude", last.1)
            out.value("longitude", last.2)
            out.value("at", SignalKTime.text(unixTime: last.0))
            out.beginArray("track")
            for point in points {
                out.beginArray()
                out.value(nil, (point.1 * 1e5).rounded() / 1e5)
                out.value(nil, (point.2 * 1e5).rounded() / 1e5)
                out.endArray()
            }
            out.endArray()
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.text
    }
}
