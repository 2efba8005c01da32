import Marine
import Platform
import SignalK

/// A polar file: the table or Expedition layout (``Polar/parse(_:)``), or ORC's certificate data in JSON.
public enum PolarFile {
    public static func load(_ path: String) throws(CommandError) -> Polar {
        do { return try read(path) } catch { throw CommandError("polar: \(error.description)") }
    }

    /// The same, its errors without the "polar: " a command puts before them (a configuration names the key
    /// itself: "line 3: polar: polar: ..." until 2026-12-01). At most 16 MB, as ORC's JSON is read.
    public static func read(_ path: String) throws(CommandError) -> Polar {
        let bytes: [UInt8]
        do { bytes = try POSIX.readFile(path, limit: 16 << 20) } catch { throw CommandError("\(error)") }
        if bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{") {
            guard let json = JSONValue.parse(bytes, maximumDepth: 8, maximumLength: 16 << 20),
                let polar = orc(json)
            else {
                throw CommandError("\(path): not ORC certificate JSON (no Allowances with WindSpeeds and R52...)")
            }
            return polar
        }
        do { return try Polar.parse(String(decoding: bytes, as: UTF8.self)) } catch {
            throw CommandError("\(path): \(error)")
        }
    }

    /// ORC's certificate JSON (data.orc.org): `Allowances` (of the first boat of `rms` when the file holds several)
    /// with `WindSpeeds`, the time allowances `R52`...`R150` in seconds a mile at those wind speeds, the beat and
    /// gybe angles (`BeatAngle`, `GybeAngle`) and their VMG allowances (`Beat`, `Run`). A speed is 3600 over its
    /// allowance; the target speeds are the VMG over the cosine of their angle.
    public static func orc(_ json: JSONValue) -> Polar? {
        guard let allowances = json["Allowances"] ?? json["rms"]?.array?.first?["Allowances"],
            let windSpeeds = numbers(allowances["WindSpeeds"]), !windSpeeds.isEmpty
        else { return nil }
        // Angles of the wind, nothing else: 1e300 trapped `Int` below and ended the gateway until 2026-12-01.
        let angles = (numbers(allowances["WindAngles"]) ?? [52, 60, 75, 90, 110, 120, 135, 150]).filter {
            $0 > 0 && $0 <= 180
        }
        func knots(_ seconds: Double?) -> Double? { seconds.flatMap { $0 > 0 ? 3600 / $0 : nil } }
        var curves: [Polar.Curve] = []
        for (column, windSpeed) in windSpeeds.enumerated() {
            var points: [(angle: Double, speed: Double)] = []
            for angle in angles {
                if let speed = knots(numbers(allowances["R\(Int(angle))"])?.element(column)) {
                    points.append((angle, speed))
                }
            }
            func target(_ angleKey: String, _ vmgKey: String) -> Polar.Target? {
                guard let angle = numbers(allowances[angleKey])?.element(column), angle > 0, angle < 180,
                    let vmg = knots(numbers(allowances[vmgKey])?.element(column))
                else { return nil }
                let cosine = Polar.Target(angle: angle, speed: 1).windwardSpeed
                guard abs(cosine) > 0.05 else { return nil }
                return Polar.Target(angle: angle, speed: vmg / abs(cosine))
            }
            guard !points.isEmpty else { continue }
            curves.append(
                Polar.Curve(
                    windSpeed: windSpeed, points: points, beat: target("BeatAngle", "Beat"),
                    run: target("GybeAngle", "Run")))
        }
        return curves.isEmpty ? nil : Polar(curves: curves)
    }

    private static func numbers(_ value: JSONValue?) -> [Double]? {
        guard let array = value?.array else { return nil }
        let numbers = array.compactMap { $0.number }
        return numbers.count == array.count ? numbers : nil
    }
}

extension Array {
    fileprivate func element(_ index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
