/// ACK, acknowledge alarm: a display or plotter acknowledges the alarm an ALR announced.
///
/// `$--ACK,xxx*hh`
/// the alarm number at the alarm's source (ALR's second field)
public struct ACK: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x41, 0x43, 0x4B)  // "ACK"

    public var alarmNumber: Int?

    public init(alarmNumber: Int? = nil) {
        self.alarmNumber = alarmNumber
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        alarmNumber = try r.integer()
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.integer(alarmNumber.map { min(max($0, 0), 999) }, width: 3)
    }
}
