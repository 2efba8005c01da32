import Marine
import Platform

/// The harmonics files on the boat and the stations in them, as `telltale tide` and the gateway find them: the
/// sailor's own files first (the `tides/` folder beside the state file, and any named), then Debian's `xtide-data`.
/// Each file is mapped read-only while it is searched (a search touches its pages; they are the kernel's to drop
/// again once the mapping goes), and a station read from it keeps its constants, not the file.
public enum TideLibrary {
    /// Debian's `xtide-data`: `harmonics-dwf-*-free.tcd`.
    public static let systemFolder = "/usr/share/xtide"
    /// The largest harmonics file mapped (XTide's free file is 2 MB; the non-free ones are larger).
    static let sizeLimit = 64 << 20

    public enum Failure: Error, CustomStringConvertible {
        case file(String, String)
        case noFiles
        case unknown(String)
        case ambiguous(String, [String])
        case unusable(String)

        public var description: String {
            switch self {
            case .file(let path, let why): "\(path): \(why)"
            case .noFiles: "no harmonics file (install Debian's xtide-data, or put a .tcd file in the tides folder)"
            case .unknown(let name): "no station named \(name)"
            case .ambiguous(let name, let names):
                "\(names.count) stations are named \(name): say which\n"
                    + names.prefix(30).map { "  " + $0 }.joined(separator: "\n")
                    + (names.count > 30 ? "\n  ... and \(names.count - 30) more" : "")
            case .unusable(let why): why
            }
        }
    }

    /// A harmonics file, open: its path and its stations' entries.
    public struct Source {
        public let path: String
        public let file: HarmonicsFile

        public var name: String { POSIX.baseName(path) }
    }

    /// The harmonics files: those named (files or folders), then the `.tcd` files of `folder` (the sailor's own), then
    /// Debian's.
    public static func paths(named: [String] = [], folder: String? = nil, system: String = systemFolder) -> [String] {
        var out: [String] = []
        for path in named + [folder].compactMap({ $0 }) + [system] {
            if POSIX.isDirectory(path) {
                out += POSIX.list(path).filter { $0.hasSuffix(".tcd") && !$0.hasPrefix(".") }.sorted()
                    .map { path + "/" + $0 }
            } else if named.contains(path), POSIX.exists(path) {
                out.append(path)
            }
        }
        var seen: Set<String> = []
        return out.filter { seen.insert($0).inserted }
    }

    /// The file at `path`, mapped and its header checked.
    public static func open(_ path: String) throws(Failure) -> Source {
        let bytes: UnsafeRawBufferPointer
        do { bytes = try POSIX.map(path, limit: sizeLimit) } catch { throw .file(path, "\(error)") }
        do {
            return Source(path: path, file: try HarmonicsFile(GridBytes(bytes: bytes) { POSIX.unmap($0) }))
        } catch {
            throw .file(path, "\(error)")
        }
    }

    /// Every file of `paths` that opens; those that do not are told to `refused`.
    public static func open(_ paths: [String], refused: (Failure) -> Void = { _ in }) -> [Source] {
        var out: [Source] = []
        for path in paths {
            do throws(Failure) { out.append(try open(path)) } catch { refused(error) }
        }
        return out
    }

    /// Every station of `sources` as a search candidate (names read when `names`).
    public static func candidates(_ sources: [Source], names: Bool = true) -> [TideSearch.Candidate] {
        var out: [TideSearch.Candidate] = []
        for (index, source) in sources.enumerated() {
            guard let entries = try? source.file.entries(names: names) else { continue }
            for entry in entries { out.append(TideSearch.Candidate(file: index, entry: entry)) }
        }
        return out
    }

    /// The station a candidate is, with its reference read when it is subordinate.
    public static func station(_ candidate: TideSearch.Candidate, in sources: [Source]) throws(Failure) -> TideStation {
        let source = sources[candidate.file]
        let record: TideRecord
        var reference: TideRecord?
        do throws(HarmonicsFile.FormatError) {
            record = try source.file.record(candidate.entry)
            if let number = record.referenceNumber { reference = try source.file.record(number) }
        } catch {
            throw .file(source.path, "\(error)")
        }
        do throws(TideStation.Unusable) {
            return try TideStation(record, reference: reference, file: source.file, fileName: source.name)
        } catch {
            throw .unusable("\(error)")
        }
    }

    /// The current stations of an area (degrees; an area across the antimeridian has `west` > `east`), at most
    /// `limit` of them: the chart's arrows, the router's current field.
    public static func currentStations(
        in sources: [Source], south: Double, west: Double, north: Double, east: Double, limit: Int = 300
    ) -> [TideStation] {
        var out: [TideStation] = []
        for candidate in candidates(sources) where out.count < limit {
            let entry = candidate.entry
            let inside =
                west <= east
                ? entry.longitude >= west && entry.longitude <= east
                : entry.longitude >= west || entry.longitude <= east
            guard TideSearch.isCurrentName(entry.name), entry.latitude >= south, entry.latitude <= north, inside,
                let station = try? station(candidate, in: sources), station.kind == .current
            else { continue }
            out.append(station)
        }
        return out
    }

    /// The station `name` names in `sources`.
    public static func station(named name: String, in sources: [Source]) throws(Failure) -> TideStation {
        guard !sources.isEmpty else { throw .noFiles }
        switch TideSearch.named(name, in: candidates(sources)) {
        case .found(let candidate): return try station(candidate, in: sources)
        case .ambiguous(let list): throw .ambiguous(name, list.map { $0.entry.name })
        case .none: throw .unknown(name)
        }
    }
}
