import NMEA
import Testing

/// Frames a whole input and returns what came out, in order.
func frame(
    _ text: String, configuration: FramerConfiguration = FramerConfiguration(), chunk: Int = .max
) -> (sentences: [Sentence], rejects: [FramingError], statistics: FramerStatistics) {
    var framer = SentenceFramer(configuration: configuration)
    var sentences: [Sentence] = []
    var rejects: [FramingError] = []
    let bytes = Array(text.utf8)
    var start = 0
    let handle: (FramerEvent) -> Void = { event in
        switch event {
        case .sentence(let sentence): sentences.append(sentence)
        case .rejected(let error, _): rejects.append(error)
        }
    }
    while start < bytes.count {
        let end = min(bytes.count, start + max(chunk, 1))
        framer.feed(bytes[start..<end], handle)
        start = end
    }
    framer.finish(handle)
    return (sentences, rejects, framer.statistics)
}

/// Parses one sentence that must be valid.
func sentence(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Sentence {
    do {
        return try Sentence(parsing: text)
    } catch {
        Issue.record("\(text) did not frame: \(error)", sourceLocation: sourceLocation)
        throw error
    }
}

/// Decodes one sentence that must be valid.
func message(_ text: String) throws -> Message {
    try Message(try Sentence(parsing: text))
}

/// The folder `../shared/fixtures` beside the repository, when it is there.
func sharedFixtures(filePath: String = #filePath) -> String? {
    var components = filePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    // .../main/Tests/NMEATests/File.swift -> .../main/..
    components.removeLast(3)
    let repository = components.joined(separator: "/")
    let folder = repository + "/../shared/fixtures"
    return fileExists(folder + "/SOURCES.md") ? folder : nil
}

/// Reads a whole file as bytes (no Foundation needed).
func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let got = fread(&buffer, 1, buffer.count, file)
        if got == 0 { break }
        bytes.append(contentsOf: buffer[0..<got])
    }
    return bytes
}

func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

#if canImport(Glibc)
    import Glibc
#endif

/// `$` + body + `*hh`, with the checksum computed here by a plain XOR (independent of the codec).
func checksummed(_ body: String, start: String = "$") -> String {
    let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
    let hex = String(sum, radix: 16, uppercase: true)
    return start + body + "*" + (hex.count == 1 ? "0" + hex : hex)
}
