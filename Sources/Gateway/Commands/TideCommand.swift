import Marine
import Platform
import SignalK

/// `telltale tide STATION` and `telltale tide --near LAT,LON`.
public enum TideCommand {
    public static func run(_ options: TideOptions, now: Double = POSIX.unixTime()) throws(CommandError) -> String {
        var refusals: [String] = []
        let sources = TideLibrary.open(try paths(options)) { refusals.append("telltale: \($0)") }
        for line in refusals { Console.error(line + "\n") }
        guard !sources.isEmpty else { throw CommandError("tide: \(TideLibrary.Failure.noFiles)", status: 66) }
        if let point = options.near { return near(point, sources: sources, options: options) }
        if let point = options.current {
            return try current(
                point, sources: sources, options: options, from: options.from ?? (now / 60).rounded(.down) * 60)
        }
        let station: TideStation
        do throws(TideLibrary.Failure) {
            station = try TideLibrary.station(named: options.station ?? "", in: sources)
        } catch {
            throw CommandError("tide: \(error)", status: 65)
        }
        // Now to the minute: the heights fall on whole minutes.
        let from = options.from ?? (now / 60).rounded(.down) * 60
        let to = from + options.hours * 3600
        var curve = station.curve()
        let events = curve.events(from: from, to: to)
        var points: [(Double, Double)] = []
        var time = from
        while time <= to + 0.5 {
            points.append((time, curve.value(at: time)))
            time += options.step * 60
        }
        return options.json
            ? json(station, events: events, points: points, from: from, hours: options.hours) + "\n"
            : text(station, events: events)
    }

    /// The harmonics files: `--file`, the tides folder of `--config` (or the default state folder's), Debian's.
    static func paths(_ options: TideOptions) throws(CommandError) -> [String] {
        var configuration = GatewayConfiguration()
        if let path = options.config {
            do { configuration = try ConfigurationFile.load(path: path) } catch {
                throw CommandError("tide: \(path): \(error)", status: 78)
            }
        }
        return TideLibrary.paths(
            named: options.files + configuration.tides.files,
            folder: configuration.tides.folder(stateFile: configuration.stateFile))
    }

    static func near(_ point: GeoPoint, sources: [TideLibrary.Source], options: TideOptions) -> String {
        let found = TideSearch.nearest(point, in: TideLibrary.candidates(sources), count: options.count)
        var out = JSONWriter()
        var lines: [String] = []
        out.beginObject()
        out.value("latitude", point.latitude)
        out.value("longitude", point.longitude)
        out.beginArray("stations")
        for (candidate, distance) in found {
            let station = try? TideLibrary.station(candidate, in: sources)
            let kind = station?.kind.rawValue ?? "?"
            out.beginObject()
            out.value("station", candidate.entry.name)
            out.value("kind", kind)
            out.value("distance", rounded(distance / 1852, 3))
            out.value("latitude", candidate.entry.latitude)
            out.value("longitude", candidate.entry.longitude)
            out.value("subordinate", !candidate.entry.isReference)
            out.value("file", sources[candidate.file].name)
            out.endObject()
            lines.append(
                FixedDecimal.text(distance / 1852, decimals: 1).padded(7, left: true) + " NM  " + kind.padded(8)
                    + candidate.entry.name)
        }
        out.endArray()
        out.endObject()
        return options.json ? out.text + "\n" : lines.joined(separator: "\n") + "\n"
    }

    static func rounded(_ value: Double, _ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    static func json(
        _ station: TideStation, events: [TideEvent], points: [(Double, Double)], from: Double, hours: Double
    ) -> String {
        let current = station.kind == .current
        var out = JSONWriter()
        out.beginObject()
        out.value("station", station.name)
        out.value("kind", station.kind.rawValue)
        out.value("units", current ? "kn" : "m")
        if current { out.null("datum") } else { out.value("datum", station.datum) }
        out.value("latitude", station.latitude)
        out.value("longitude", station.longitude)
        out.value("timeZone", station.timeZone)
        if let reference = station.reference { out.value("reference", reference) } else { out.null("reference") }
        out.value("file", station.file)
        if current {
            out.value("floodDirection", station.floodDirection)
            out.value("ebbDirection", station.ebbDirection)
        }
        out.value("from", SignalKTime.text(unixTime: from))
        out.value("hours", hours)
        out.beginArray("events")
        for event in events {
            out.beginObject()
            out.value("time", SignalKTime.text(unixTime: event.time))
            out.value("type", event.kind.rawValue)
            out.value(current ? "speed" : "height", rounded(event.value, 3))
            out.endObject()
        }
        out.endArray()
        out.beginArray(current ? "currents" : "heights")
        for (time, value) in points {
            out.beginObject()
            out.value("time", SignalKTime.text(unixTime: time))
            out.value(current ? "speed" : "height", rounded(value, 3))
            if current { out.value("direction", station.direction(ofSpeed: value)) }
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.text
    }

    static func text(_ station: TideStation, events: [TideEvent]) -> String {
        let current = station.kind == .current
        var lines = [station.name]
        var about = current ? "tidal current, knots (flood positive)" : "tide, metres above \(station.datum)"
        if let reference = station.reference { about += "; subordinate to \(reference)" }
        lines.append(about + "; " + station.file + "; times UTC")
        if current, let flood = station.floodDirection, let ebb = station.ebbDirection {
            lines.append(
                "flood sets \(FixedDecimal.text(flood, decimals: 0))°, ebb \(FixedDecimal.text(ebb, decimals: 0))° true"
            )
        }
        for event in events {
            let time = SignalKTime.text(unixTime: (event.time / 60).rounded() * 60)
            let when = String(time.prefix(10)) + " " + String(time.dropFirst(11).prefix(5))
            lines.append(
                when + "  " + event.kind.rawValue.padded(6)
                    + FixedDecimal.text(event.value, decimals: 2).padded(7, left: true)
                    + (current ? " kn" : " m"))
        }
        if events.isEmpty { lines.append("no events in that time") }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// Padded with spaces to `width` (on the left when `left`).
    fileprivate func padded(_ width: Int, left: Bool = false) -> String {
        let spaces = String(repeating: " ", count: max(0, width - count))
        return left ? spaces + self : self + spaces
    }
}
