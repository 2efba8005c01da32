import Engine
import Marine
import Platform
import SignalK

/// The tide on board inside `telltale run`: when the engine asks for the stations near the boat (it has moved on a
/// couple of miles), the harmonics files are mapped, their positions read, the nearest tide station and the current
/// stations within reach decoded, and the files let go again: the gateway keeps the few stations' constants, never a
/// file's pages. Also the chart's current stations for a time and an area, and the panel's tide curve.
final class TideService: Service {
    let name = "tides"
    let configuration: TideConfiguration
    let folder: String?
    private let log: Log
    /// The files as last found, and whether their absence was said.
    private var saidNone = false
    private var refused: Set<String> = []
    /// Where the engine last asked about, not yet looked for.
    private var wanted: GeoPoint?

    init(configuration: TideConfiguration, stateFile: String?, log: Log) {
        self.configuration = configuration
        folder = configuration.folder(stateFile: stateFile)
        self.log = log
    }

    /// The engine wants the stations near `point` (``Router/Action/tides(near:)``): looked for at this service's next
    /// turn, after the tick that asked, and handed back as an event.
    func want(_ point: GeoPoint) { wanted = point }

    func nextDue(now: Double) -> Double? { wanted == nil ? nil : now }

    func service(_ turn: inout Turn) {
        guard let point = wanted else { return }
        wanted = nil
        turn.emit(.tides(stations(near: point)))
    }

    /// The harmonics files open now (the sailor's first), each refusal said once.
    func sources() -> [TideLibrary.Source] {
        let paths = TideLibrary.paths(named: configuration.files, folder: folder)
        let sources = TideLibrary.open(paths) { failure in
            let text = "\(failure)"
            guard refused.insert(text).inserted else { return }
            log.warning("tides.file", "tides: \(text); not used", [("reason", text)])
        }
        if sources.isEmpty && !saidNone {
            saidNone = true
            log.notice("tides.none", "tides: \(TideLibrary.Failure.noFiles); no tide or stream on board")
        }
        if !sources.isEmpty { saidNone = false }
        return sources
    }

    /// The stations near `point`: the configured tide station (else the nearest within its radius), and the current
    /// stations within theirs, nearest first (at most eight).
    func stations(near point: GeoPoint) -> TideStations {
        let sources = self.sources()
        var found = TideStations(near: point, tide: nil, currents: [])
        guard !sources.isEmpty else { return found }
        let candidates = TideLibrary.candidates(sources, names: configuration.station != nil)
        if let name = configuration.station {
            do throws(TideLibrary.Failure) {
                found.tide = try TideLibrary.station(named: name, in: sources)
            } catch {
                log.warning("tides.station", "tides: [tides] station: \(error)", [("station", name)])
            }
        }
        let near = TideSearch.nearest(
            point, in: candidates, count: 40, limit: max(configuration.tideRadius, configuration.currentRadius))
        for (candidate, distance) in near {
            guard let station = try? TideLibrary.station(candidate, in: sources) else { continue }
            if station.kind == .tide {
                if found.tide == nil && distance <= configuration.tideRadius { found.tide = station }
            } else if distance <= configuration.currentRadius && found.currents.count < 8 {
                found.currents.append(station)
            }
        }
        log.info(
            "tides.stations",
            "tides: near \(FixedDecimal.text(point.latitude, decimals: 3)), "
                + "\(FixedDecimal.text(point.longitude, decimals: 3)): "
                + (found.tide.map { "heights from \($0.name)" } ?? "no tide station within reach") + "; "
                + "\(found.currents.count) current station(s)")
        return found
    }

    /// The current stations in an area, each with its stream at `time` (UNIX seconds): the chart's arrows.
    func currents(south: Double, west: Double, north: Double, east: Double, time: Double) -> String {
        let sources = self.sources()
        var out = JSONWriter()
        out.beginObject()
        out.value("time", SignalKTime.text(unixTime: time))
        out.beginArray("stations")
        // Of a station's bins at several depths, the shallowest: the stream a boat sails in, one arrow a place.
        let stations = TideLibrary.currentStations(in: sources, south: south, west: west, north: north, east: east)
        for station in TideStation.surfaceOnly(stations) {
            var curve = station.curve()
            let speed = curve.value(at: time)
            out.beginObject()
            out.value("station", station.name)
            out.value("latitude", station.latitude)
            out.value("longitude", station.longitude)
            out.value("speed", (speed * 100).rounded() / 100)
            out.value("direction", station.direction(ofSpeed: speed))
            out.value("kind", speed >= 0 ? "flood" : "ebb")
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.text
    }
}
