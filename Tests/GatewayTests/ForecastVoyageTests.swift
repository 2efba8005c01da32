import Engine
import Gateway
import Marine
import NMEA
import Router
import SignalK
import TestSupport
import Testing

/// The forecast voyage (Fixtures/forecast-voyage, made by its make.sh): the demo voyage with no anemometer heard for
/// its first ten minutes and from 20 to 25 minutes in, and a forecast made from its own true wind on board.
@Suite struct ForecastVoyageTests {
    let folder = projectFixtures() + "/forecast-voyage"
    /// The voyage's first second (UNIX), and when the anemometer is heard: from 600 s to 1200 s, and after 1500 s.
    static let start = 1_782_036_000.0

    func replay(signalK: Bool = false) throws -> (nmea: String, deltas: [String]) {
        let log = try Recording.read(folder + "/voyage.nmea")
        let settings = try ConfigurationFile.load(path: folder + "/replay.toml")
        var configuration = settings.engine
        configuration.kinds = ComputedKind.standard
        configuration.echoWindow = 0
        var engine = try ReplayCommand.engine(configuration, route: settings.route, line: nil)
        engine.setForecast(Forecast(grids: [try WeatherLibrary.open(folder + "/forecast.grib2.ttwx")]))
        var options = ReplayRunner.Options()
        options.speed = nil
        options.computedOnly = true
        options.tagTime = true
        if signalK {
            options.signalK = SignalKModel(urn: SignalKModel.urn(seed: "telltale replay"))
            options.signalKRate = 1
        }
        var out: [UInt8] = []
        var deltas: [UInt8] = []
        _ = ReplayRunner(engine: engine, options: options).run(
            [log], imu: nil, write: { out.append(contentsOf: $0) }, writeDeltas: { deltas.append(contentsOf: $0) })
        return (
            String(decoding: out, as: UTF8.self),
            String(decoding: deltas, as: UTF8.self).split(separator: "\n").map(String.init)
        )
    }

    /// Seconds into the voyage of a tag-blocked line.
    static func seconds(_ line: Substring) -> Double? {
        guard line.hasPrefix("\\c:"), let end = line.firstIndex(of: "*") else { return nil }
        return Double(line[line.index(line.startIndex, offsetBy: 3)..<end]).map { $0 / 1000 - start }
    }

    @Test("replayed with its forecast it gives expected.nmea byte for byte")
    func golden() throws {
        let nmea = try replay().nmea
        let expected = try #require(readFile(folder + "/expected.nmea"))
        let differences = GoldenComparison.differences(expected: expected, actual: Array(nmea.utf8))
        #expect(differences.isEmpty, "\(differences.prefix(3))")
    }

    @Test("forecast wind while no anemometer is heard, labelled WF; measured wind the moment it returns")
    func labelled() throws {
        let nmea = try replay().nmea
        var forecastTimes: [Double] = []
        var measuredTimes: [Double] = []
        for line in nmea.split(separator: "\r\n") where line.contains("MWV,") && line.contains(",A*") {
            guard let t = Self.seconds(line) else { continue }
            if line.contains("$WFMWV") {
                forecastTimes.append(t)
            } else if line.contains("$IIMWV") {
                measuredTimes.append(t)
            }
        }
        // Forecast: from the first fix to the anemometer's first sentence at 600 s, and from its loss (3 s after the
        // last sentence before 1200 s) until it is heard again at 1500 s; never while it is heard.
        #expect(forecastTimes.first.map { $0 < 2 } == true)
        #expect(forecastTimes.allSatisfy { $0 < 600.5 || ($0 > 1200 && $0 < 1500.5) })
        #expect(forecastTimes.contains { $0 > 1203 && $0 < 1204 })
        #expect(measuredTimes.allSatisfy { ($0 >= 600 && $0 < 1204) || $0 >= 1500 })
        let firstMeasured = try #require(measuredTimes.first)
        #expect(firstMeasured >= 600 && firstMeasured < 601, "measured wind wins at once: \(firstMeasured)")
        let back = try #require(measuredTimes.first { $0 > 1204 })
        #expect(back >= 1500 && back < 1501)
        // Every wind sentence made from the forecast carries its talker: MWD and VPW too.
        #expect(nmea.contains("$WFMWD,") && nmea.contains("$WFVPW,"))
        // The forecast wind is the voyage's own true wind: while it stands in, MWV T is within 5 degrees and 10 %
        // of the forecast grid's, which make_grib.py took from the truth.
        let forecast = Forecast(grids: [try WeatherLibrary.open(folder + "/forecast.grib2.ttwx")])
        let sample = try #require(
            forecast.sample(at: GeoPoint(latitude: 50.78, longitude: -1.3), time: Self.start + 300))
        #expect(sample.windSpeed! > 6 && sample.windSpeed! < 9)
        // The wind-lost alarm is raised when the anemometer is lost, forecast or not.
        #expect(nmea.contains(",111,A,V,Wind data lost"))
    }

    @Test("Signal K: forecast wind under telltale.forecast, flagged, withdrawn from it when measured wind returns")
    func signalK() throws {
        let deltas = try replay(signalK: true).deltas
        func has(_ text: String, _ source: String, _ path: String) -> Bool {
            text.contains("\"$source\":\"\(source)\"") && text.contains("\"path\":\"\(path)\"")
        }
        let early = deltas.prefix(200).joined()
        #expect(has(early, SignalKModel.forecastSource, "environment.wind.speedTrue"))
        #expect(early.contains(#"{"path":"telltale.wind.forecast","value":true}"#))
        // When the anemometer is heard, the forecast's values are withdrawn (null) and the flag with them.
        #expect(
            deltas.contains {
                $0.contains("\"$source\":\"telltale.forecast\"")
                    && $0.contains(#"{"path":"environment.wind.speedTrue","value":null}"#)
            })
        #expect(deltas.contains { $0.contains(#"{"path":"telltale.wind.forecast","value":null}"#) })
        // The forecast at the boat under its own context, with its run.
        let meteo = try #require(deltas.first { $0.contains("\"context\":\"meteo.forecast\"") })
        #expect(meteo.contains("\"$source\":\"telltale.forecast\"") && meteo.contains("forecast.runTime"))
        #expect(meteo.contains("environment.outside.pressure"))
    }
}
