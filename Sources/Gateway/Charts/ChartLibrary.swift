import CSQLite
import Platform
import SignalK

/// The charts folder's raster MBTiles files (the format AvNav, Freeboard-SK and OpenCPN users convert OpenSeaMap,
/// NOAA and national charts to), read with SQLite: each file named by its name less `.mbtiles`, its metadata
/// (name, format, bounds, zooms) listed, its tiles served (MBTiles rows count from the south: TMS, flipped here to the
/// web's XYZ). At most 8 files are open at once (the least recently used closed); a file that is not an MBTiles
/// (no `tiles` table, not SQLite at all) is listed as broken and never crashes anything; a tile over 1 MiB is refused.
public final class ChartLibrary {
    struct Chart {
        var name: String
        var title: String
        var format: String
        var bounds: [Double]?
        var minZoom: Int?
        var maxZoom: Int?
        var error: String?

        /// Its bounds and zoom levels, as both the chart page's list and the chart resources write them.
        func writeExtent(into json: inout JSONWriter) {
            if let bounds {
                json.beginArray("bounds")
                for value in bounds { json.value(nil, value) }
                json.endArray()
            }
            if let minZoom { json.value("minzoom", minZoom) }
            if let maxZoom { json.value("maxzoom", maxZoom) }
        }
    }

    private final class Open {
        let sqlite: SQLite
        let database: OpaquePointer
        let tile: OpaquePointer
        var used: Double

        init(sqlite: SQLite, database: OpaquePointer, tile: OpaquePointer, used: Double) {
            self.sqlite = sqlite
            self.database = database
            self.tile = tile
            self.used = used
        }

        deinit {
            _ = sqlite.finalize(tile)
            _ = sqlite.close(database)
        }
    }

    private var sqlite: SQLite?
    private var sqliteTried = false

    let configuration: ChartConfiguration
    var folder: String? { configuration.folder }
    private var open: [String: Open] = [:]
    private var formats: [String: String] = [:]
    private(set) var served = 0
    private(set) var failures = 0
    /// Files that could not be opened as MBTiles, with their stamp then: not tried again until they change.
    private var broken: [String: POSIX.FileStamp?] = [:]
    /// Told once of each file found broken (its name and why), for the log.
    var report: (String, String) -> Void = { _, _ in }
    static let maximumTile = 1 << 20
    static let maximumOpen = 8

    /// The offline base map, mapped at the start when its files are there.
    private(set) var baseMap: BaseMapFiles?
    /// Its folder and how many resolutions it has, for the log (nil: no base map).
    public var baseMapFound: (folder: String, resolutions: Int)? { baseMap.map { ($0.folder, $0.resolutions) } }

    public init(_ configuration: ChartConfiguration, log: (String) -> Void = { _ in }) {
        self.configuration = configuration
        if let folder = BaseMapFiles.find(configured: configuration.baseMap) {
            let files = BaseMapFiles(folder: folder, log: log)
            baseMap = files.resolutions > 0 ? files : nil
        }
    }

    /// The MBTiles files in the folder, by name (at most 64).
    var names: [String] {
        guard let folder else { return [] }
        let files = POSIX.list(folder).filter {
            $0.hasSuffix(".mbtiles") && SignalKServer.chartKind("/charts/" + String($0.dropLast(8)) + "/0/0/0") != nil
        }
        return Array(files.map { String($0.dropLast(8)) }.sorted().prefix(64))
    }

    /// The answer to a chart request: status, content type, body.
    public func answer(_ kind: SignalKServer.ChartRequest.Kind, now: Double) -> (Int, String, [UInt8]) {
        switch kind {
        case .list:
            return (200, "application/json", Array(listJSON(now: now).utf8))
        case .tile(let name, let z, let x, let y):
            guard let (bytes, format) = tile(name, z: z, x: x, y: y, now: now) else {
                return (404, "text/plain", Array("no such tile\n".utf8))
            }
            served += 1
            return (
                200, format == "jpg" || format == "jpeg" ? "image/jpeg" : format == "webp" ? "image/webp" : "image/png",
                bytes
            )
        case .baseMap(let resolution, let bins):
            guard let baseMap, let bytes = baseMap.bins(resolution, bins) else {
                return (404, "text/plain", Array("no base map: telltale basemap makes it (docs/chart.md)\n".utf8))
            }
            served += 1
            return (200, "application/octet-stream", bytes)
        case .places(let query):
            guard let json = baseMap?.places(query) else {
                return (404, "text/plain", Array("no gazetteer: telltale basemap makes it (docs/chart.md)\n".utf8))
            }
            return (200, "application/json", Array(json.utf8))
        }
    }

    /// The offline charts as Signal K's chart resources (`/signalk/v2/api/resources/charts`), as Freeboard-SK reads
    /// them: a tile layer each, its tiles at `/charts/<name>/{z}/{x}/{y}`. Read-only; a broken file is left out.
    func resources(_ operation: SignalKServer.ResourceRequest.Operation, now: Double) -> (Int, String) {
        func resource(_ chart: Chart, into json: inout JSONWriter, key: String?) {
            json.beginObject(key)
            json.value("identifier", chart.name)
            json.value("name", chart.title)
            json.value("description", "MBTiles file " + chart.name + ".mbtiles")
            json.value("type", "tilelayer")
            json.value("format", chart.format == "jpeg" ? "jpg" : chart.format)
            json.value("url", "/charts/" + chart.name + "/{z}/{x}/{y}")
            chart.writeExtent(into: &json)
            json.beginArray("layers")
            json.endArray()
            json.value("$source", "telltale")
            json.endObject()
        }
        switch operation {
        case .list(let filter, _):
            var json = JSONWriter()
            json.beginObject()
            var count = 0
            for name in names {
                let chart = describe(name, now: now)
                guard chart.error == nil else { continue }
                if let box = filter.box, let bounds = chart.bounds, bounds.count == 4,
                    bounds[0] > box[2] || bounds[2] < box[0] || bounds[1] > box[3] || bounds[3] < box[1]
                {
                    continue
                }
                resource(chart, into: &json, key: chart.name)
                count += 1
                if let limit = filter.limit, count >= limit { break }
            }
            json.endObject()
            return (200, json.text)
        case .read(let id):
            guard names.contains(id) else {
                return (404, Resources.result(404, message: "Resource not found! (\(id))"))
            }
            let chart = describe(id, now: now)
            guard chart.error == nil else { return (404, Resources.result(404, message: chart.error ?? "")) }
            var json = JSONWriter()
            resource(chart, into: &json, key: nil)
            return (200, json.text)
        default:
            return (405, Resources.result(405, message: "charts are the MBTiles files of the chart folder"))
        }
    }

    /// `{"charts": [...], "baseLayer": ..., "seamarks": ...}`: what the chart page's layer menu offers.
    func listJSON(now: Double) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.beginArray("charts")
        for name in names {
            let chart = describe(name, now: now)
            json.beginObject()
            json.value("name", chart.name)
            json.value("title", chart.title)
            json.value("format", chart.format)
            chart.writeExtent(into: &json)
            if let error = chart.error { json.value("error", error) }
            json.endObject()
        }
        json.endArray()
        if let layer = configuration.baseLayer { json.value("baseLayer", layer) } else { json.null("baseLayer") }
        if let layer = configuration.seamarks { json.value("seamarks", layer) } else { json.null("seamarks") }
        if let start = configuration.panelStart { json.value("start", start) }
        json.value("baseMap", baseMap != nil)
        if let limit = configuration.crossTrackLimit { json.value("xteLimit", limit) }
        if let distance = configuration.collisionDistance { json.value("collisionDistance", distance) }
        json.endObject()
        return json.text
    }

    /// A file's metadata table read (MBTiles 1.3: name, format, bounds, minzoom, maxzoom).
    func describe(_ name: String, now: Double) -> Chart {
        var chart = Chart(name: name, title: name, format: "png")
        guard let file = connection(name, now: now) else {
            chart.error = sqlite == nil ? "libsqlite3 is not installed" : "not a readable MBTiles file"
            return chart
        }
        let sqlite = file.sqlite
        guard let statement = sqlite.statement(file.database, "SELECT name, value FROM metadata LIMIT 64") else {
            chart.error = "no metadata table"
            return chart
        }
        defer { _ = sqlite.finalize(statement) }
        while sqlite.step(statement) == SQLITE_ROW {
            let key = text(sqlite, statement, 0)
            let value = text(sqlite, statement, 1)
            switch key {
            case "name": chart.title = String(value.prefix(80))
            case "format": chart.format = String(value.prefix(8))
            case "bounds":
                let numbers = value.split(separator: ",").compactMap { Double(String($0)) }
                if numbers.count == 4 && numbers.allSatisfy({ $0.isFinite }) { chart.bounds = numbers }
            case "minzoom": chart.minZoom = Int(value).flatMap { (0...24).contains($0) ? $0 : nil }
            case "maxzoom": chart.maxZoom = Int(value).flatMap { (0...24).contains($0) ? $0 : nil }
            default: break
            }
        }
        formats[name] = chart.format
        return chart
    }

    /// One tile's bytes and its format; nil when the chart or the tile is not there.
    func tile(_ name: String, z: Int, x: Int, y: Int, now: Double) -> ([UInt8], String)? {
        guard let file = connection(name, now: now) else {
            failures += 1
            return nil
        }
        let statement = file.tile
        let sqlite = file.sqlite
        defer { _ = sqlite.reset(statement) }
        _ = sqlite.bindInt(statement, 1, Int32(z))
        _ = sqlite.bindInt(statement, 2, Int32(x))
        _ = sqlite.bindInt(statement, 3, Int32((1 << z) - 1 - y))
        guard sqlite.step(statement) == SQLITE_ROW else { return nil }
        let count = Int(sqlite.columnBytes(statement, 0))
        guard count > 0, count <= Self.maximumTile, let blob = sqlite.columnBlob(statement, 0) else {
            failures += 1
            return nil
        }
        let bytes = Array(UnsafeRawBufferPointer(start: blob, count: count))
        if formats[name] == nil { formats[name] = describe(name, now: now).format }
        return (bytes, formats[name] ?? "png")
    }

    private func text(_ sqlite: SQLite, _ statement: OpaquePointer, _ column: Int32) -> String {
        guard let pointer = sqlite.columnText(statement, column) else { return "" }
        let count = Int(sqlite.columnBytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: min(count, 4096)), as: UTF8.self)
    }

    /// The file's connection and prepared tile query, opened on first use; nil when it cannot be.
    private func connection(_ name: String, now: Double) -> Open? {
        if let file = open[name] {
            file.used = now
            return file
        }
        if !sqliteTried {
            sqliteTried = true
            sqlite = SQLite.load()
        }
        guard let folder, let sqlite, names.contains(name) else { return nil }
        let path = folder + "/" + name + ".mbtiles"
        let stamp = POSIX.stamp(path)
        if let known = broken[name], known == stamp { return nil }
        func refuse(_ reason: String) -> Open? {
            broken[name] = stamp
            report(name, reason)
            return nil
        }
        guard let database = sqlite.connect(path) else { return refuse("cannot be opened as SQLite") }
        guard
            let tile = sqlite.statement(
                database, "SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3")
        else {
            _ = sqlite.close(database)
            return refuse("not an MBTiles file (no tiles table)")
        }
        broken[name] = nil
        if open.count >= Self.maximumOpen, let oldest = open.min(by: { $0.value.used < $1.value.used })?.key {
            open[oldest] = nil
        }
        let file = Open(sqlite: sqlite, database: database, tile: tile, used: now)
        open[name] = file
        return file
    }
}
