import Platform
import SignalK

/// The places a sailor can search the chart for by name (#42): GeoNames' cities of 15,000 people or more (24,361,
/// CC-BY-4.0, geonames.org), as Debian's libgeonames0 carries them compiled in. `telltale basemap` reads them through
/// the library (opened with dlopen(3) by that command only) into `gazetteer.txt` beside the base map: a line a place,
/// `key<TAB>name<TAB>region<TAB>country<TAB>latitude<TAB>longitude<TAB>population`, sorted by key (the name with its
/// ASCII letters in lower case). The gateway maps it and finds names by their beginning with a binary search.
enum Gazetteer {
    typealias Count = @convention(c) () -> Int32
    typealias City = @convention(c) (Int32) -> OpaquePointer?
    typealias Text = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    typealias Number = @convention(c) (OpaquePointer?) -> Double
    typealias Population = @convention(c) (OpaquePointer?) -> UInt32
    typealias Free = @convention(c) (OpaquePointer?) -> Void

    /// The gazetteer's text from libgeonames; nil with why when the library is not there.
    static func fromGeoNames() -> (text: String?, reason: String) {
        do throws(DynamicLibrary.Failure) {
            let library = try DynamicLibrary.open(["libgeonames.so.0", "libgeonames.so"])
            let count = try library.function("geonames_get_n_cities", as: Count.self)
            let city = try library.function("geonames_get_city", as: City.self)
            let name = try library.function("geonames_city_get_name", as: Text.self)
            let state = try library.function("geonames_city_get_state", as: Text.self)
            let country = try library.function("geonames_city_get_country", as: Text.self)
            let latitude = try library.function("geonames_city_get_latitude", as: Number.self)
            let longitude = try library.function("geonames_city_get_longitude", as: Number.self)
            let population = try library.function("geonames_city_get_population", as: Population.self)
            let free = try library.function("geonames_city_free", as: Free.self)
            var lines: [(key: String, line: String)] = []
            for index in 0..<count() {
                guard let place = city(index) else { continue }
                defer { free(place) }
                func text(_ get: Text) -> String { get(place).map { clean(String(cString: $0)) } ?? "" }
                let title = text(name)
                let lat = latitude(place)
                let lon = longitude(place)
                guard !title.isEmpty, lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else { continue }
                let fields = [
                    key(title), title, text(state), text(country), format(lat), format(lon), String(population(place)),
                ]
                lines.append((fields[0], fields.joined(separator: "\t")))
            }
            lines.sort { $0.key < $1.key || ($0.key == $1.key && $0.line < $1.line) }
            return (lines.map { $0.line }.joined(separator: "\n") + "\n", "\(lines.count) places from \(library.name)")
        } catch {
            return (nil, "\(error)")
        }
    }

    /// No tabs or line ends inside a field.
    static func clean(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 == 9 || $0 == 10 || $0 == 13 ? 32 : $0 }, as: UTF8.self)
    }

    static func format(_ degrees: Double) -> String {
        let scaled = (degrees * 100_000).rounded() / 100_000
        return String(scaled)
    }

    /// What names are compared by: ASCII letters in lower case; other bytes as they are.
    static func key(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// Up to `limit` places whose key begins with `query`'s, the most populous first, as JSON objects (name, region,
    /// country, latitude, longitude, population), from the mapped file's sorted lines.
    static func search(_ query: String, in bytes: UnsafeRawBufferPointer, limit: Int = 20) -> String {
        let wanted = Array(key(query).utf8)
        var json = JSONWriter()
        json.beginArray()
        guard !wanted.isEmpty else {
            json.endArray()
            return json.text
        }
        // Line starts, found by walking back from a middle byte to the previous newline.
        func lineStart(_ at: Int) -> Int {
            var index = at
            while index > 0 && bytes[index - 1] != 10 { index -= 1 }
            return index
        }
        func lineEnd(_ start: Int) -> Int {
            var index = start
            while index < bytes.count && bytes[index] != 10 { index += 1 }
            return index
        }
        func keyLess(_ start: Int) -> Bool {
            var index = start
            for byte in wanted {
                guard index < bytes.count, bytes[index] != 9 else { return true }
                if bytes[index] != byte { return bytes[index] < byte }
                index += 1
            }
            return false
        }
        var low = 0
        var high = bytes.count
        while low < high {
            let middle = lineStart((low + high) / 2)
            if keyLess(middle) { low = lineEnd(middle) + 1 } else { high = middle }
        }
        var found: [(population: Int, fields: [String])] = []
        var start = lineStart(min(low, bytes.count))
        while start < bytes.count, found.count < 500 {
            let end = lineEnd(start)
            let line = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            guard line.count >= wanted.count, Array(line[0..<wanted.count]) == wanted else { break }
            let fields = line.split(separator: 9, omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
            if fields.count == 7 { found.append((Int(fields[6]) ?? 0, fields)) }
            start = end + 1
        }
        found.sort { $0.population > $1.population }
        for place in found.prefix(limit) {
            json.beginObject()
            json.value("name", place.fields[1])
            json.value("region", place.fields[2])
            json.value("country", place.fields[3])
            json.value("latitude", Double(place.fields[4]) ?? 0)
            json.value("longitude", Double(place.fields[5]) ?? 0)
            json.value("population", place.population)
            json.endObject()
        }
        json.endArray()
        return json.text
    }
}
