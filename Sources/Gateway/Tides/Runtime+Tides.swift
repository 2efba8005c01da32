import Engine
import Marine
import Router
import SignalK

/// The panel's tide: the curve from twelve hours ago to a day ahead, the events, the height and the water at low
/// water, the predicted stream beside the measured current; and the chart's current stations for a time.
extension Runtime {
    func answerTides(_ asked: SignalKServer.FleetRequest) -> SignalKServer.ShellReply {
        guard let tides = services.tides else {
            return .message(status: 404, "tides are off ([tides] enabled = false)")
        }
        let utc = (asked.parameters["time"].flatMap { WeatherOptions.time($0) }) ?? turn.unixTime
        switch asked.path {
        case "", "/":
            return .json(status: 200, TideReportJSON.json(router.tideStations, values: lastReport?.values, utc: utc))
        case "/currents":
            func number(_ key: String, _ fallback: Double) -> Double {
                asked.parameters[key].flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil } ?? fallback
            }
            let south = number("south", -90)
            let north = number("north", 90)
            guard north - south <= 10, abs(south) <= 90, abs(north) <= 90 else {
                return .message(status: 400, "say an area of at most 10° of latitude: south, west, north, east")
            }
            return .json(
                status: 200,
                tides.currents(
                    south: south, west: number("west", -180), north: north, east: number("east", 180), time: utc))
        default:
            return .message(status: 404, "not found")
        }
    }
}

/// The tide on board as the panel reads it: metres, knots, degrees true, times in RFC 3339 (UTC).
enum TideReportJSON {
    static func json(_ stations: TideStations?, values: InstrumentValues?, utc: Double) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.value("time", SignalKTime.text(unixTime: utc))
        if let station = stations?.tide {
            var curve = station.curve()
            out.beginObject("station")
            out.value("name", station.name)
            out.value("datum", station.datum)
            out.value("latitude", station.latitude)
            out.value("longitude", station.longitude)
            out.value("file", station.file)
            if let tide = values?.tide { out.value("distance", (tide.distance / 1852 * 100).rounded() / 100) }
            out.endObject()
            let start = (utc / 600).rounded(.down) * 600 - 12 * 3600
            out.beginArray("curve")
            for step in 0...(36 * 6) {
                let time = start + Double(step) * 600
                out.beginObject()
                out.value("time", SignalKTime.text(unixTime: time))
                out.value("height", (curve.value(at: time) * 1000).rounded() / 1000)
                out.endObject()
            }
            out.endArray()
            out.beginArray("events")
            for event in curve.events(from: start, to: start + 36 * 3600) { write(event, "height", &out) }
            out.endArray()
        } else {
            out.null("station")
        }
        tideValues(values?.tide, &out)
        streams(values, stations, &out)
        out.endObject()
        return out.text
    }

    static func write(_ event: TideEvent, _ key: String, _ out: inout JSONWriter) {
        out.beginObject()
        out.value("time", SignalKTime.text(unixTime: event.time))
        out.value("type", event.kind.rawValue)
        out.value(key, (event.value * 1000).rounded() / 1000)
        out.endObject()
    }

    static func tideValues(_ tide: TideReport?, _ out: inout JSONWriter) {
        guard let tide else { return out.null("now") }
        out.beginObject("now")
        out.value("height", (tide.height * 1000).rounded() / 1000)
        out.value("rising", tide.rising)
        for (key, event) in [("previous", tide.previous), ("high", tide.nextHigh), ("low", tide.nextLow)] {
            if let event {
                out.beginObject(key)
                out.value("time", SignalKTime.text(unixTime: event.time))
                out.value("type", event.kind.rawValue)
                out.value("height", (event.value * 1000).rounded() / 1000)
                out.endObject()
            } else {
                out.null(key)
            }
        }
        out.value("depthAtLow", tide.depthAtNextLow.map { ($0 * 100).rounded() / 100 })
        out.value("depthBelowKeel", tide.depthIsBelowKeel)
        out.endObject()
    }

    static func streams(_ values: InstrumentValues?, _ stations: TideStations?, _ out: inout JSONWriter) {
        if let stream = values?.predictedStream {
            out.beginObject("stream")
            out.value("set", (stream.set * 10).rounded() / 10)
            out.value("drift", (stream.drift / 1852 * 3600 * 100).rounded() / 100)
            out.value("station", stream.station)
            out.value("distance", (stream.distance / 1852 * 100).rounded() / 100)
            out.value("stations", stream.stations)
            out.endObject()
        } else {
            out.null("stream")
        }
        if let current = values?.measuredCurrent {
            out.beginObject("measured")
            out.value("set", (current.set * 10).rounded() / 10)
            out.value("drift", (current.drift / 1852 * 3600 * 100).rounded() / 100)
            out.endObject()
        } else {
            out.null("measured")
        }
        out.beginArray("currentStations")
        for station in stations?.currents ?? [] {
            out.beginObject()
            out.value("name", station.name)
            out.value("latitude", station.latitude)
            out.value("longitude", station.longitude)
            out.endObject()
        }
        out.endArray()
    }
}
