import Marine
import NMEA
import Platform
import SignalK

/// `telltale weather import`: a GRIB file (edition 1 or 2, as Saildocs, NOAA, ECMWF or a phone app sends it) read
/// with ecCodes into the compact grid the gateway maps (``ForecastGrid``): 10 m wind, gust, mean sea-level pressure,
/// precipitation as a rate and total cloud, on the grid of the wind.
///
/// Several runs in one file: for each field and time, the latest run's. Precipitation accumulated from the start of
/// the run (ECMWF) or over alternating periods (NCEP's 0–3 h, 0–6 h) becomes the rate of each interval between the
/// file's times. Messages on another grid, of other fields or unreadable are counted and said, never guessed at.
public enum GRIBImport {
    /// What an import made and left out, for the person who ran it and the gateway's log.
    public struct Summary: Sendable {
        public var label: String
        public var runTime: Double
        public var times: [Double]
        public var fields: [ForecastField]
        public var south, west, north, east, rowStep, columnStep: Double
        public var messages: Int
        /// Messages left out: of fields not used, on another grid, unreadable.
        public var skipped: [String]
        /// Values the atmosphere cannot hold, left missing.
        public var refused: Int
        public var bytes: Int

        /// One paragraph.
        public var text: String {
            let area =
                "\(FixedDecimal.text(south, decimals: 2))..\(FixedDecimal.text(north, decimals: 2)) N, "
                + "\(FixedDecimal.text(west, decimals: 2))..\(FixedDecimal.text(east, decimals: 2)) E"
            var lines = [
                "\(label): run \(SignalKTime.text(unixTime: runTime)), \(times.count) times from "
                    + "\(SignalKTime.text(unixTime: times.first ?? 0)) to \(SignalKTime.text(unixTime: times.last ?? 0))",
                "  area \(area), steps \(FixedDecimal.text(rowStep, decimals: 3))° × "
                    + "\(FixedDecimal.text(columnStep, decimals: 3))°",
                "  fields " + fields.map { $0.name }.joined(separator: ", ") + "; \(messages) messages used, "
                    + "\(bytes) bytes",
            ]
            if !skipped.isEmpty { lines.append("  left out: " + skipped.joined(separator: "; ")) }
            if refused > 0 { lines.append("  \(refused) impossible values left missing") }
            return lines.joined(separator: "\n")
        }
    }

    /// At most this many values in one grid (128 MB): a whole-world file at 0.25° must be cut to the sailing area.
    static let valueLimit = 64_000_000

    /// Reads the GRIB file at `path` and writes its grid to `output` (atomically: the gateway never sees half a
    /// grid). `name` labels it (the file's name by default).
    public static func run(_ path: String, output: String, name: String? = nil) throws(CommandError) -> Summary {
        guard let codes = ECCodes.load() else {
            throw CommandError("weather import: ecCodes is not installed (apt install libeccodes0)", status: 69)
        }
        let file: [UInt8]
        do { file = try POSIX.readFile(path, limit: 512 << 20) } catch {
            throw CommandError("weather import: \(error)", status: 66)
        }
        let ranges = GRIBMessage.split(file)
        guard !ranges.isEmpty else { throw CommandError("weather import: \(path): not a GRIB file", status: 65) }
        let grib = GRIBBytes(codes, file)
        var (messages, skipped) = grib.messages(ranges)
        guard
            let geometry = (messages.first { $0.field == .windEast || $0.field == .windNorth } ?? messages.first)?
                .geometry
        else {
            throw CommandError(
                "weather import: \(path): nothing to use (" + describe(skipped)
                    + "); needs 10 m wind, pressure or the sea's current",
                status: 65)
        }
        let onGrid = messages.filter { $0.geometry.sameGrid(as: geometry) }
        if onGrid.count < messages.count { skipped["on another grid", default: 0] += messages.count - onGrid.count }
        let fields = ForecastField.allCases.filter { field in onGrid.contains { $0.field == field } }
        // The weather (wind or pressure), or an ocean model's current (RTOFS and the like carry nothing of the air).
        guard
            fields.contains(.pressure) || (fields.contains(.windEast) && fields.contains(.windNorth))
                || (fields.contains(.currentEast) && fields.contains(.currentNorth))
        else {
            throw CommandError("weather import: \(path): no 10 m wind, pressure nor current in it", status: 65)
        }
        let accumulations = onGrid.filter { if case .accumulated = $0.role { true } else { false } }
        let chosen = latest(onGrid, accumulations: accumulations)
        var validTimes = Set<Int64>()
        for byTime in chosen.values { for time in byTime.keys { validTimes.insert(time) } }
        let times = validTimes.sorted()
        let runTime = chosen.values.flatMap { $0.values.map { $0.run } }.max() ?? times[0]
        guard times.count * fields.count * geometry.rows * geometry.columns <= valueLimit, times.count <= 4_000 else {
            throw CommandError(
                "weather import: \(path): \(times.count) times of \(geometry.columns) × \(geometry.rows) points is "
                    + "too much for a boat: ask for a smaller area or fewer days", status: 65)
        }
        let centre = onGrid.first?.centre ?? ""
        let label = (name ?? POSIX.baseName(path)) + (centre.isEmpty ? "" : " (\(centre))")
        var writer = ForecastGridWriter(
            columns: geometry.columns, rows: geometry.rows, south: geometry.south, west: geometry.west,
            rowStep: geometry.rowStep, columnStep: geometry.columnStep, runTime: runTime, times: times,
            fields: fields, label: label)
        let limit = geometry.rows * geometry.columns
        var used = 0
        for (timeIndex, time) in times.enumerated() {
            for field in fields {
                guard let message = chosen[field]?[time] else { continue }
                guard var grid = grib.values(message, limit: limit) else {
                    skipped["unreadable values", default: 0] += 1
                    continue
                }
                if case .accumulated(let start) = message.role {
                    grid = rate(of: message, grid, start: start, among: accumulations) {
                        grib.values($0, limit: limit)
                    }
                }
                writer.set(field, time: timeIndex, values: grid)
                used += 1
            }
        }
        let bytes = writer.bytes()
        // The grid must read back as the gateway will read it.
        do { _ = try ForecastGrid(GridBytes(copying: bytes)) } catch {
            throw CommandError("weather import: \(path): its messages make no forecast (\(error))", status: 65)
        }
        do { try POSIX.writeFileAtomically(output, bytes) } catch {
            throw CommandError("weather import: \(error)", status: 73)
        }
        return Summary(
            label: label, runTime: Double(runTime), times: times.map(Double.init), fields: fields,
            south: geometry.south, west: geometry.west,
            north: geometry.south + Double(geometry.rows - 1) * geometry.rowStep,
            east: geometry.west + Double(geometry.columns - 1) * geometry.columnStep, rowStep: geometry.rowStep,
            columnStep: geometry.columnStep, messages: used,
            skipped: skipped.keys.sorted().map { "\(skipped[$0]!) \($0)" }, refused: writer.refused,
            bytes: bytes.count)
    }

    /// For each field and valid time, the latest run's message; with accumulations, every one of them (their
    /// differences make the rates) and no rate beside them.
    static func latest(_ messages: [GRIBMessage], accumulations: [GRIBMessage]) -> [ForecastField: [Int64: GRIBMessage]]
    {
        var chosen: [ForecastField: [Int64: GRIBMessage]] = [:]
        for message in messages {
            if case .rate = message.role, !accumulations.isEmpty { continue }
            if let kept = chosen[message.field]?[message.valid], kept.run >= message.run { continue }
            chosen[message.field, default: [:]][message.valid] = message
        }
        return chosen
    }

    /// An accumulation as the mean rate (mm/h) of the interval that ends at its time: less the accumulation from the
    /// same start that ends latest before it (NCEP's 0–6 h less its 0–3 h), else over the whole accumulation.
    static func rate(
        of message: GRIBMessage, _ amount: [Double], start: Int64, among all: [GRIBMessage],
        values: (GRIBMessage) -> [Double]?
    ) -> [Double] {
        var previous: GRIBMessage?
        for other in all where other.run == message.run && other.valid < message.valid && other.valid > start {
            guard case .accumulated(let otherStart) = other.role, otherStart == start else { continue }
            if previous.map({ other.valid > $0.valid }) ?? true { previous = other }
        }
        if let previous, let before = values(previous) {
            let hours = Double(message.valid - previous.valid) / 3600
            return zip(amount, before).map { now, then in max(now - then, 0) / hours }
        }
        let hours = Double(message.valid - start) / 3600
        guard hours > 0 else { return amount.map { _ in .nan } }
        return amount.map { max($0, 0) / hours }
    }

    static func describe(_ skipped: [String: Int]) -> String {
        skipped.isEmpty ? "no message" : skipped.keys.sorted().map { "\(skipped[$0]!) \($0)" }.joined(separator: ", ")
    }
}

/// A GRIB file's bytes where ecCodes reads them: a message is read where it lies, so the bytes stay put until the
/// last handle is gone (this object's life).
final class GRIBBytes {
    let codes: ECCodes
    private let memory: UnsafeMutableRawBufferPointer

    init(_ codes: ECCodes, _ file: [UInt8]) {
        self.codes = codes
        memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, file.count), alignment: 16)
        file.withUnsafeBytes { memory.copyMemory(from: $0) }
    }

    deinit { memory.deallocate() }

    func handle(_ range: Range<Int>) -> ECCodes.Handle? {
        guard let base = memory.baseAddress else { return nil }
        return codes.newFromMessage(nil, UnsafeRawPointer(base) + range.lowerBound, range.count)
    }

    /// Every message Telltale can use, and how many of each kind it could not, by why.
    func messages(_ ranges: [Range<Int>]) -> ([GRIBMessage], [String: Int]) {
        var messages: [GRIBMessage] = []
        var skipped: [String: Int] = [:]
        for range in ranges {
            guard let h = handle(range) else {
                skipped["unreadable", default: 0] += 1
                continue
            }
            defer { _ = codes.delete(h) }
            do throws(GRIBMessage.Skip) {
                messages.append(try GRIBMessage.read(codes, h, bytes: range))
            } catch {
                switch error {
                case .unused(let name): skipped["not used (\(name))", default: 0] += 1
                case .grid(let type): skipped["\(type) grid", default: 0] += 1
                case .unreadable(let why): skipped["unreadable (\(why))", default: 0] += 1
                }
            }
        }
        return (messages, skipped)
    }

    /// A message's values on the grid, in the forecast's order and units; NaN where its bitmap leaves a point out.
    func values(_ message: GRIBMessage, limit: Int) -> [Double]? {
        guard let h = handle(message.bytes) else { return nil }
        defer { _ = codes.delete(h) }
        guard let raw = codes.values(h, limit: limit), raw.count == limit else { return nil }
        // ecCodes' value for a point its bitmap leaves out.
        let missing = codes.double(h, "missingValue") ?? 9999
        let hasBitmap = codes.long(h, "bitmapPresent") == 1
        return message.geometry.normalised(raw).map { value in
            hasBitmap && value == missing ? .nan : value * message.scale
        }
    }
}
