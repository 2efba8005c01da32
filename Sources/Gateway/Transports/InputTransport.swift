import CPosix
import Engine
import NMEA
import Platform

/// What an input hands the loop.
enum InputEvent {
    case sentence(Sentence)
    /// A line refused while framing (bad checksum, too long, not NMEA), and why (nil: a sample that was not one):
    /// counted.
    case rejected(RejectReason?)
    case fix(GPSDClient.Report)
    /// An IMU sample in the body frame, taken at `time` on the monotonic clock.
    case imu(IMUFile.Sample, time: Double)
    /// A looping log began its voyage again (so does the route).
    case restarted(lap: Int)
    /// The race timer's button was pressed or held.
    case button(ButtonGesture.Gesture)
}

/// One input, whatever carries it: a log, a TCP or UDP socket, a serial port, gpsd, an IMU.
///
/// The loop opens, polls, services, counts and closes every input through this alone and never asks what kind it
/// is, so a new transport is one type conforming to this and one line in ``Transports``. Each input owns its
/// reconnecting: `prepare` opens or reopens when due and never blocks.
protocol InputTransport: AnyObject {
    var name: String { get }
    /// The loop's start on the monotonic clock: a log plays from there.
    func start(at time: Double)
    /// Opens or reopens when due, then adds the descriptors the loop should wait on.
    func prepare(now: Double, into set: inout PollSet)
    /// When it must be serviced next whether or not a descriptor is ready (a log's next sentence, a sample,
    /// a reconnect); nil when only its descriptors matter.
    func nextDue(now: Double) -> Double?
    /// Reads what is ready and hands each event on; `set` is the set just polled.
    func service(now: Double, polled set: PollSet, _ body: (InputEvent) -> Void)
    /// Its own counts for the summary (", 3 rejected, 1 reconnects"), empty when it has none.
    var counts: String { get }
    /// What to look at when its lines cannot be read (``InputHealth``).
    var unreadableHint: String { get }
    /// The bytes it has received since it was made (nil: an input that does not read NMEA 0183 text).
    var bytesReceived: Int? { get }
    /// For a finite input (a log played once), whether it has played everything; nil for inputs that never end.
    var finished: Bool? { get }
    func close()
}

extension InputTransport {
    func start(at time: Double) {}
    func nextDue(now: Double) -> Double? { nil }
    var counts: String { "" }
    var unreadableHint: String { "is it NMEA 0183 text, and the right address?" }
    var bytesReceived: Int? { nil }
    var finished: Bool? { nil }
    func close() {}
}

extension InputEvent {
    /// A framer's verdict on a line, as an input event.
    init(_ event: FramerEvent) {
        switch event {
        case .sentence(let sentence): self = .sentence(sentence)
        case .rejected(let error, _): self = .rejected(error.reason)
        }
    }
}
