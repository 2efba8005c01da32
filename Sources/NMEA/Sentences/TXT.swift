/// TXT, text transmission, for human-readable notices only.
///
/// `$--TXT,xx,xx,xx,c--c*hh`
/// total sentences 01–99 · sentence number · text identifier · text (at most 61 characters)
public struct TXT: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x54, 0x58, 0x54)  // "TXT"
    /// The longest text one TXT sentence carries.
    public static let maximumTextLength = 61

    public var totalSentences: Int?
    public var sentenceNumber: Int?
    public var identifier: Int?
    public var text: String?

    public init(totalSentences: Int? = 1, sentenceNumber: Int? = 1, identifier: Int? = nil, text: String? = nil) {
        self.totalSentences = totalSentences
        self.sentenceNumber = sentenceNumber
        self.identifier = identifier
        self.text = text
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        totalSentences = try r.integer()
        sentenceNumber = try r.integer()
        identifier = try r.integer()
        text = r.text()
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.integer(totalSentences, width: 2)
        w.integer(sentenceNumber, width: 2)
        w.integer(identifier, width: 2)
        w.text(text)
    }

    /// Splits a notice into TXT sentences of at most 61 characters each, breaking between words where it can
    /// so that no word is cut in two unless it is longer than a whole sentence. At most 99 sentences.
    public static func messages(_ notice: String, identifier: Int) -> [TXT] {
        var chunks: [String] = []
        var current = ""
        for word in notice.split(separator: " ", omittingEmptySubsequences: true) {
            var word = Substring(word)
            while word.utf8.count > maximumTextLength {
                if !current.isEmpty {
                    chunks.append(current)
                    current = ""
                }
                let head = word.utf8.prefix(maximumTextLength)
                chunks.append(String(decoding: head, as: UTF8.self))
                word = Substring(String(decoding: word.utf8.dropFirst(maximumTextLength), as: UTF8.self))
            }
            let separator = current.isEmpty ? 0 : 1
            if current.utf8.count + separator + word.utf8.count > maximumTextLength {
                chunks.append(current)
                current = String(word)
            } else {
                current += (separator == 1 ? " " : "") + word
            }
        }
        if !current.isEmpty || chunks.isEmpty { chunks.append(current) }
        let kept = chunks.prefix(99)
        return kept.enumerated().map { offset, chunk in
            TXT(
                totalSentences: kept.count, sentenceNumber: offset + 1, identifier: identifier,
                text: chunk.isEmpty ? nil : chunk)
        }
    }
}
