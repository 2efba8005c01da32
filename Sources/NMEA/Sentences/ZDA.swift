/// ZDA, time and date.
///
/// `$--ZDA,hhmmss.ss,dd,mm,yyyy,zh,zm*hh`
/// time · day · month · year · local zone hours · local zone minutes
public struct ZDA: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x5A, 0x44, 0x41)  // "ZDA"

    public var time: UTCTime?
    public var day: Int?
    public var month: Int?
    public var year: Int?
    public var zoneHours: Int?
    public var zoneMinutes: Int?

    public init(
        time: UTCTime? = nil, day: Int? = nil, month: Int? = nil, year: Int? = nil, zoneHours: Int? = nil,
        zoneMinutes: Int? = nil
    ) {
        self.time = time
        self.day = day
        self.month = month
        self.year = year
        self.zoneHours = zoneHours
        self.zoneMinutes = zoneMinutes
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.time(time)
        w.integer(day, width: 2)
        w.integer(month, width: 2)
        w.integer(year, width: 4)
        w.integer(zoneHours, width: 2)
        w.integer(zoneMinutes, width: 2)
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        time = try r.time()
        day = try r.integer()
        month = try r.integer()
        year = try r.integer()
        zoneHours = try r.integer()
        zoneMinutes = try r.integer()
    }

    /// The date, when day, month and year are all present and plausible.
    public var date: UTCDate? {
        guard let day, let month, let year, (1...31).contains(day), (1...12).contains(month), year > 1900 else {
            return nil
        }
        return UTCDate(year: year, month: month, day: day)
    }
}
