import Engine
import Marine
import NMEA

/// The forecasts on board over HTTP: Signal K's weather API, as signalk-server's `src/api/weather` serves it with
/// Telltale's GRIB files as its one provider, and the panel's own weather page and chart layer.
///
///     GET /signalk/v2/api/weather/_providers                  {"telltale": {"provider": ..., "isDefault": true}}
///     GET /signalk/v2/api/weather/forecasts/point?lat&lon     the forecast there at each forecast time from now
///         [&count=N][&date=YYYY-MM-DD]                        (WeatherData, type "point", SI units)
///     GET /telltale/v1/weather                                the weather page: meteogram, route, barograph, grids
///     GET /telltale/v1/weather/field?time&south&west&north&east   wind on a grid of at most 12 × 12 points
///     PUT /telltale/v1/weather/grib?name&offset&total         a GRIB file from the phone, 16 KB a request
extension SignalKServer {
    static let weatherAPIPath = "/signalk/v2/api/weather"
    static let weatherPagePath = "/telltale/v1/weather"
    /// The name the GRIB provider goes by in the weather API.
    static let weatherProvider = "telltale"
    /// At most this many points a forecast request answers, and this many bytes of GRIB a phone may send.
    static let maximumForecastPoints = 120
    public static let maximumUpload = 32 << 20

    /// Signal K's weather API.
    mutating func weatherAPI(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, unixTime: Double, keepAlive: Bool,
        _ act: (Action) -> Void
    ) {
        func reply(_ status: Int, _ json: String) { respond(id, &connection, status, json, keepAlive: keepAlive, act) }
        func refuse(_ status: Int, _ message: String) {
            self.reply(id, &connection, status, message, keepAlive: keepAlive, act)
        }
        guard request.method == "GET" || request.method == "HEAD" else { return refuse(405, "GET only") }
        let path = request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path
        switch String(path.dropFirst(Self.weatherAPIPath.count)) {
        case "":
            return reply(200, #"{"forecasts":{"description":"Forecast data for the supplied location."}}"#)
        case "/_providers":
            return reply(
                200, #"{"telltale":{"provider":"Telltale (GRIB files on board)","isDefault":true}}"#)
        case "/_providers/_default":
            return reply(200, #"{"id":"telltale"}"#)
        case "/forecasts/point", "/forecasts":
            guard let latText = request.parameter("lat"), let lonText = request.parameter("lon") else {
                return refuse(400, "Location not supplied!")
            }
            guard let latitude = Double(latText), let longitude = Double(lonText), abs(latitude) <= 90,
                abs(longitude) <= 180
            else { return refuse(400, "Invalid position data!") }
            if let provider = request.parameter("provider"), provider != Self.weatherProvider {
                return refuse(400, "no weather provider \(provider): this server has \(Self.weatherProvider)")
            }
            var count = 24
            if let text = request.parameter("count") {
                guard let n = Int(text), n > 0 else { return refuse(400, "count: a whole number") }
                count = min(n, Self.maximumForecastPoints)
            }
            var start = unixTime
            if let date = request.parameter("date") {
                guard let day = Self.day(date) else { return refuse(400, "date: YYYY-MM-DD") }
                start = max(day, unixTime)
            }
            return reply(
                200,
                Self.pointForecasts(
                    forecast, at: GeoPoint(latitude: latitude, longitude: longitude),
                    from: start, count: count))
        case "/forecasts/daily":
            return refuse(501, "daily forecasts are not made from GRIB files here: ask for point forecasts")
        case "/observations", "/warnings":
            return reply(200, "[]")
        default:
            return refuse(404, "not found")
        }
    }

    /// The panel's weather page, its chart layer and its upload.
    mutating func weatherPage(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, model: SignalKModel, unixTime: Double,
        keepAlive: Bool, _ act: (Action) -> Void
    ) {
        func reply(_ status: Int, _ json: String) { respond(id, &connection, status, json, keepAlive: keepAlive, act) }
        func refuse(_ status: Int, _ message: String) {
            self.reply(id, &connection, status, message, keepAlive: keepAlive, act)
        }
        let rest = String(request.path.dropFirst(Self.weatherPagePath.count))
        switch (request.method, rest) {
        case ("GET", ""), ("GET", "/"), ("HEAD", ""):
            return reply(200, Self.weatherPageJSON(model.weather))
        case ("GET", "/field"):
            func number(_ name: String) -> Double? { request.parameter(name).flatMap { Double($0) } }
            guard let south = number("south"), let west = number("west"), let north = number("north"),
                let east = number("east"), south < north, abs(south) <= 90, abs(north) <= 90, abs(west) <= 540,
                abs(east) <= 540, east > west, east - west <= 360
            else { return refuse(400, "say south, west, north and east in degrees") }
            let time = number("time") ?? unixTime
            guard time.isFinite else { return refuse(400, "time: UNIX seconds") }
            return reply(200, Self.fieldJSON(forecast, south: south, west: west, north: north, east: east, time: time))
        case ("PUT", "/grib"):
            if let refused = refusal(connection, token: Self.token(of: request)) {
                counters.refused += 1
                return refuse(refused.status, refused.message)
            }
            guard let name = request.parameter("name"), Self.isFileName(name) else {
                return refuse(400, "name: the GRIB file's name (letters, digits, '.', '_', '-')")
            }
            guard let offset = request.parameter("offset").flatMap({ Int($0) }),
                let total = request.parameter("total").flatMap({ Int($0) }), offset >= 0, total > 0,
                total <= Self.maximumUpload, offset <= total, request.body.count <= total - offset
            else {
                return refuse(400, "offset and total: where this piece goes, and the file's length (32 MB at most)")
            }
            counters.puts += 1
            ask(
                .upload(UploadPiece(name: name, offset: offset, total: total, bytes: request.body)), id, &connection,
                keepAlive: keepAlive, act)
        case (_, "/grib"): return refuse(405, "PUT only")
        default: return refuse(404, "not found")
        }
    }

    /// A name a file may have in the uploads folder: never a path, never hidden.
    static func isFileName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 96 && name.first != "."
            && name.utf8.allSatisfy { byte in
                (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 45
                    || byte == 46 || byte == 95
            }
    }

    /// Midnight UTC of `YYYY-MM-DD`, UNIX seconds.
    static func day(_ text: String) -> Double? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1900...2999).contains(year), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return Double(UTCDate(year: year, month: month, day: day).daysSinceEpoch) * 86_400
    }

    /// Point forecasts at `point`: now, then each forecast time, `count` at most, as signalk-server's WeatherData.
    static func pointForecasts(_ forecast: Forecast, at point: GeoPoint, from time: Double, count: Int) -> String {
        let samples = RouteWeather.meteogram(at: point, from: time, hours: 24 * 16, forecast: forecast).prefix(count)
        var json = JSONWriter()
        json.beginArray()
        for sample in samples {
            json.beginObject()
            json.value("date", SignalKTime.text(unixTime: sample.time))
            json.value("type", "point")
            json.value("description", "GRIB forecast, run " + SignalKTime.text(unixTime: sample.runTime))
            json.beginObject("outside")
            if let pressure = sample.pressure { json.value("pressure", pressure) }
            if let cloud = sample.cloud { json.value("cloudCover", cloud / 100) }
            if let rain = sample.precipitation {
                // mm/h over the hour: metres of water, as the API's precipitationVolume.
                json.value("precipitationVolume", rain / 1000)
                if rain > 0.1 { json.value("precipitationType", "rain") }
            }
            json.endObject()
            json.beginObject("wind")
            if let speed = sample.windSpeed { json.value("speedTrue", speed) }
            if let direction = sample.windDirection { json.value("directionTrue", Angle.radians(direction)) }
            if let gust = sample.gust { json.value("gust", gust) }
            json.endObject()
            json.endObject()
        }
        json.endArray()
        return json.text
    }

    /// The weather page's data: the meteogram, the route ahead, the barograph and the forecasts on board.
    static func weatherPageJSON(_ report: WeatherReport?) -> String {
        var json = JSONWriter()
        json.beginObject()
        guard let report else {
            json.value("time", nil as Double?)
            json.beginArray("grids")
            json.endArray()
            json.endObject()
            return json.text
        }
        json.value("time", report.time)
        json.beginArray("grids")
        for grid in report.grids {
            json.beginObject()
            json.value("label", grid.label)
            json.value("run", grid.run)
            json.value("end", grid.end)
            json.value("use", grid.use.words)
            json.value("used", grid.use == .used)
            json.beginArray("area")
            for edge in [grid.south, grid.west, grid.north, grid.east] { json.value(nil, edge) }
            json.endArray()
            json.value("global", grid.isGlobal)
            json.endObject()
        }
        json.endArray()
        json.beginArray("meteogram")
        for sample in report.meteogram { sample.write(nil, to: &json) }
        json.endArray()
        json.beginArray("route")
        for waypoint in report.route {
            json.beginObject()
            json.value("name", waypoint.name)
            json.value("latitude", waypoint.position.latitude)
            json.value("longitude", waypoint.position.longitude)
            json.value("arrival", waypoint.arrival)
            if let forecast = waypoint.forecast { forecast.write("forecast", to: &json) }
            json.endObject()
        }
        json.endArray()
        json.beginArray("barograph")
        for point in report.barograph {
            json.beginArray()
            json.value(nil, point.minutesAgo)
            json.value(nil, point.pascals)
            json.endArray()
        }
        json.endArray()
        json.endObject()
        return json.text
    }

    /// The wind at `time` on a grid of at most 12 × 12 points across the box: wind barbs for the chart.
    static func fieldJSON(
        _ forecast: Forecast, south: Double, west: Double, north: Double, east: Double, time: Double
    ) -> String {
        let steps = 11
        var json = JSONWriter()
        json.beginObject()
        json.value("time", time)
        json.beginArray("points")
        for row in 0...steps {
            let latitude = south + (north - south) * Double(row) / Double(steps)
            for column in 0...steps {
                var longitude = west + (east - west) * Double(column) / Double(steps)
                if longitude > 180 { longitude -= 360 }
                if longitude < -180 { longitude += 360 }
                let point = GeoPoint(latitude: latitude, longitude: longitude)
                guard let sample = forecast.sample(at: point, time: time), let speed = sample.windSpeed,
                    let direction = sample.windDirection
                else { continue }
                json.beginArray()
                json.value(nil, latitude)
                json.value(nil, longitude)
                json.value(nil, speed)
                json.value(nil, direction)
                json.endArray()
            }
        }
        json.endArray()
        json.endObject()
        return json.text
    }
}
