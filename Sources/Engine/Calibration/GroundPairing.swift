/// Which VTG gives the course and speed over ground of which GGA or GLL fix, in a log without RMC: the one nearest it
/// in the log. A receiver sends its sentences in a burst once a second, VTG before its GGA (u-blox) or after it
/// (SiRF), and the instruments' sentences run on between the bursts; so each VTG between two fixes belongs to the
/// nearer of the two, counted in sentences (a tie: the one before). A VTG sent twice, or a fix without one, never
/// shifts every second after it by one, as pairing each VTG with the next fix or the last would.
struct GroundPairing: Sendable {
    struct Course: Sendable {
        var course: Double?
        var speed: Double?
        var usable: Bool
    }

    /// Sentences taken so far.
    private var count = 0
    private var lastFix: Int?
    /// The first VTG after the last fix, and the latest, with their places in the log.
    private var first: (course: Course, at: Int)?
    private var latest: (course: Course, at: Int)?

    /// One sentence more in the log.
    mutating func advance() { count += 1 }

    mutating func heard(_ course: Course) {
        if first == nil { first = (course, count) }
        latest = (course, count)
    }

    /// A fix now: the course for the fix before (when the first VTG since was nearer to it), and for this one (when
    /// the latest VTG since the fix before is nearer to it); a VTG between the two goes to one of them only.
    mutating func fix() -> (before: Course?, now: Course?) {
        defer {
            lastFix = count
            first = nil
            latest = nil
        }
        guard let lastFix else { return (nil, latest?.course) }
        let before = first.flatMap { $0.at - lastFix <= count - $0.at ? $0.course : nil }
        let now = latest.flatMap { count - $0.at < $0.at - lastFix ? $0.course : nil }
        return (before, now)
    }
}
