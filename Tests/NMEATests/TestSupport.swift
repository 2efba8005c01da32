import NMEA
@_exported import TestSupport
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
