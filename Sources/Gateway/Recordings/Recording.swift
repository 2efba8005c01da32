import NMEA
import Platform

/// A recorded log read into sentences, with what was refused while framing it.
public struct Recording: Sendable {
    public var path: String
    public var sentences: [Sentence]
    public var statistics: FramerStatistics

    public init(path: String, sentences: [Sentence], statistics: FramerStatistics) {
        self.path = path
        self.sentences = sentences
        self.statistics = statistics
    }

    /// Frames a whole file. `#` lines are comments; the lenient length limit applies.
    public static func read(
        _ path: String, configuration: FramerConfiguration = FramerConfiguration(skipsCommentLines: true)
    )
        throws(POSIX.Failure) -> Recording
    {
        let bytes = try POSIX.readFile(path)
        var framer = SentenceFramer(configuration: configuration)
        var sentences: [Sentence] = []
        sentences.reserveCapacity(bytes.count / 40)
        let collect: (FramerEvent) -> Void = { event in
            if case .sentence(let sentence) = event { sentences.append(sentence) }
        }
        framer.feed(bytes, collect)
        framer.finish(collect)
        return Recording(path: path, sentences: sentences, statistics: framer.statistics)
    }
}
