import TestSupport
import Testing

@testable import Marine

/// Predictions from the 2019 constants in Debian's `xtide-data` against NOAA's published predictions for 2026
/// (`../shared/fixtures/tides`, US public domain): Honolulu and Boston (high and low waters, hourly heights) and the
/// current at Turn Point, Boundary Pass (PUG1717, bin 35: slacks, strongest flood and ebb). The bounds are the
/// issue's goals; NOAA's constants have moved on since 2019, so they are not zero.
@Suite struct TideNOAATests {
    /// NOAA's rows: ("2026-08-15 03:22" or "2026-07-19T01:44Z", value, type).
    static func rows(_ text: String, time: String, value: String, type: String) -> [(Double, Double, String)] {
        var out: [(Double, Double, String)] = []
        for chunk in text.split(separator: "{").dropFirst() {
            let bytes = Array(chunk.utf8)
            guard let t = field(bytes, time), let v = field(bytes, value).flatMap({ Double($0) }) else { continue }
            let numbers = t.split(whereSeparator: { !$0.isNumber }).compactMap { Int(String($0)) }
            guard numbers.count == 5 else { continue }
            let day =
                TideCalendar.yearStart(numbers[0]) + Double(dayOfYear(numbers[0], numbers[1], numbers[2])) * 86_400
            out.append((day + Double(numbers[3] * 3600 + numbers[4] * 60), v, field(bytes, type) ?? ""))
        }
        return out
    }

    /// The text after `"name":` up to the next quote, comma or brace (quotes dropped).
    static func field(_ bytes: [UInt8], _ name: String) -> String? {
        let key = Array("\"\(name)\"".utf8)
        guard bytes.count > key.count else { return nil }
        for start in 0...(bytes.count - key.count) where Array(bytes[start..<(start + key.count)]) == key {
            var index = start + key.count
            while index < bytes.count,
                [UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\"")].contains(bytes[index])
            {
                index += 1
            }
            var end = index
            while end < bytes.count,
                ![UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: "}"), 10].contains(bytes[end])
            {
                end += 1
            }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }
        return nil
    }

    static func dayOfYear(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return lengths.prefix(month - 1).reduce(0, +) + day - 1
    }

    static func inputs(_ name: String) -> (HarmonicsFile, String)? {
        guard let shared = sharedFixtures() else {
            print("SKIPPED: ../shared/fixtures is absent: NOAA's predictions (\(name)) not compared")
            return nil
        }
        guard let file = TideTests.file() else { return nil }
        guard let bytes = readFile(shared + "/tides/" + name) else { return nil }
        return (file, String(decoding: bytes, as: UTF8.self))
    }

    @Test(
        "Honolulu and Boston: hourly heights within 2.5 cm (mean), high and low waters within 3 min (median)",
        arguments: [
            (13, "1612340"), (74, "8443970"),
        ])
    func tideStations(number: Int, id: String) throws {
        guard let (file, hourlyText) = Self.inputs("noaa-\(id)-hourly-2026-08-15_2026-08-21.json"),
            let (_, hiloText) = Self.inputs("noaa-\(id)-hilo-2026-08-15_2026-08-21.json")
        else { return }
        var curve = try TideTests.station(file, number).curve()
        let hourly = Self.rows(hourlyText, time: "t", value: "v", type: "type")
        #expect(hourly.count == 168)
        let errors = hourly.map { abs(curve.value(at: $0.0) - $0.1) }
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean < 0.025 && (errors.max() ?? 1) < 0.07, "\(id): mean \(mean) m, worst \(errors.max() ?? 0) m")
        let hilo = Self.rows(hiloText, time: "t", value: "v", type: "type")
        let events = curve.events(from: hilo[0].0 - 10_800, to: hilo[hilo.count - 1].0 + 10_800)
        var minutes: [Double] = []
        for (time, height, type) in hilo {
            let kind: TideEvent.Kind = type == "H" ? .high : .low
            let nearest = try #require(
                events.filter { $0.kind == kind }.min { abs($0.time - time) < abs($1.time - time) })
            minutes.append(abs(nearest.time - time) / 60)
            #expect(
                abs(nearest.value - height) < 0.07, "\(id) \(type) at \(time): \(nearest.value) m against \(height)")
        }
        // Every event NOAA lists is found, and none that it does not (within the span it covers).
        let inside = events.filter { $0.time >= hilo[0].0 - 900 && $0.time <= hilo[hilo.count - 1].0 + 900 }
        #expect(inside.count == hilo.count, "\(id): \(inside.map { ($0.time, $0.kind.rawValue, $0.value) })")
        let middle = median(minutes) ?? 99
        #expect(middle < 3 && (minutes.max() ?? 99) < 30, "\(id): median \(middle) min, worst \(minutes.max() ?? 0)")
        print(
            "TideNOAATests \(id): heights mean \(mean * 100) cm, events median \(middle) min, worst \(minutes.max() ?? 0) min"
        )
    }

    @Test("Turn Point, Boundary Pass: slacks, floods and ebbs within 5 min (median) and 0.10 kn")
    func currentStation() throws {
        guard let (file, text) = Self.inputs("signalk-currents-noaa-pug1717-golden.json") else { return }
        let station = try TideTests.station(file, 1756)
        #expect(station.kind == .current && station.floodDirection == 3 && station.ebbDirection == 236)
        var curve = station.curve()
        let published = Self.rows(text, time: "utc", value: "velocityMajorKn", type: "kind")
        #expect(published.count == 24)
        let events = curve.events(from: published[0].0 - 10_800, to: published[published.count - 1].0 + 10_800)
        var minutes: [Double] = []
        for (time, speed, kind) in published {
            let nearest = try #require(
                events.filter { $0.kind.rawValue == kind }.min { abs($0.time - time) < abs($1.time - time) })
            minutes.append(abs(nearest.time - time) / 60)
            #expect(abs(nearest.value - speed) < 0.1, "\(kind) at \(time): \(nearest.value) kn against \(speed)")
        }
        let middle = median(minutes) ?? 99
        #expect(middle < 5 && (minutes.max() ?? 99) < 15, "median \(middle) min, worst \(minutes.max() ?? 0)")
        print("TideNOAATests PUG1717: events median \(middle) min, worst \(minutes.max() ?? 0) min")
    }
}
