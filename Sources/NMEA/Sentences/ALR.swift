/// ALR, set alarm state.
///
/// `$--ALR,hhmmss.ss,xxx,A,A,c--c*hh`
/// time of the last change · alarm number · condition `A` threshold exceeded / `V` not · acknowledged `A`/`V` ·
/// description
public struct ALR: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x41, 0x4C, 0x52)  // "ALR"

    public var time: UTCTime?
    public var alarmNumber: Int?
    public var isActive: Bool?
    public var isAcknowledged: Bool?
    public var text: String?

    public init(
        time: UTCTime? = nil, alarmNumber: Int? = nil, isActive: Bool? = nil, isAcknowledged: Bool? = nil,
        text: String? = nil
    ) {
        self.time = time
        self.alarmNumber = alarmNumber
        self.isActive = isActive
        self.isAcknowledged = isAcknowledged
        self.text = text
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        time = try r.time()
        alarmNumber = try r.integer()
        isActive = try r.status()
        isAcknowledged = try r.status()
        text = r.text()
    }

    /// The description is shortened, a byte a step, when the sentence would not fit.
    public var shorteningSteps: Int { IdentifierShortening.steps(longest: text?.utf8.count ?? 0) }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.time(time)
        w.integer(alarmNumber.map { min(max($0, 0), 999) }, width: 3)
        w.status(isActive)
        w.status(isAcknowledged)
        w.text(text, limit: IdentifierShortening.limit(step: shortening, longest: text?.utf8.count ?? 0))
    }
}
