import CPosix
import Engine
import Marine
import Platform
import Router

/// An IMU CSV played on its own clock, like ``FileInput`` plays a log, read from disk as it goes: an hour at
/// 100 Hz is 25 MB of text, not to be held in memory on a Pi.
final class CSVIMUInput: InputTransport {
    private let configuration: IMUConfiguration
    private var reader: LineReader
    private var columns: [Int] = []
    private var pending: IMUFile.Sample?
    /// UNIX time of the first sample of the file, and how much a lap lasts.
    private var firstTime: Double?
    private var lastTime = 0.0
    private var span = 0.0
    private(set) var lap = 0
    private var ended = false
    private var startTime = 0.0
    /// The sample read after `pending`, when a leap in the clock had to be looked past.
    private var following: IMUFile.Sample?
    /// Seconds added to the file's times from here on: a leap followed (forward at most ten minutes, none back).
    private var shift = 0.0
    /// The time of the sample played last in this lap.
    private var played: Double?
    /// Samples out of line with the file's clock, left out (a time stamped years out held the input for good).
    private(set) var timeGlitches = 0

    init(configuration: IMUConfiguration) throws(IMUFile.ParseError) {
        self.configuration = configuration
        do { reader = try LineReader(path: configuration.path) } catch {
            throw IMUFile.ParseError(path: configuration.path, line: 0, message: "\(error)")
        }
        guard let header = reader.nextLine() else {
            throw IMUFile.ParseError(path: configuration.path, line: 1, message: "empty file")
        }
        let names = String(decoding: header, as: UTF8.self).split(separator: ",").map { String($0).trimmingSpaces }
        for name in ["time_s", "ax", "ay", "az", "gx", "gy", "gz"] {
            guard let index = names.firstIndex(of: name) else {
                throw IMUFile.ParseError(path: configuration.path, line: 1, message: "no \(name) column")
            }
            columns.append(index)
        }
        let magnetometerColumns = ["mx", "my", "mz"].compactMap { names.firstIndex(of: $0) }
        if magnetometerColumns.count == 3 { columns += magnetometerColumns }
        pending = nextSample()
        firstTime = pending?.time
    }

    /// The next sample on the file's clock read through its glitches (as ``LogClock`` reads a log's, with one
    /// sample of look-ahead): one that leaps more than a minute from the sample played last while the one after it
    /// comes back is left out; a leap the one after keeps to is followed, forward by ten minutes at most (as a
    /// replay skips a gap), back not at all (the trace goes on from where its clock was).
    private func nextSample() -> IMUFile.Sample? {
        var raw = following ?? readSample()
        following = nil
        while var sample = raw {
            sample.time += shift
            guard let played, abs(sample.time - played) > LogClock.leap else { return sample }
            following = readSample()
            if let after = following, abs(after.time + shift - played) <= LogClock.leap {
                timeGlitches += 1
                raw = following
                following = nil
                continue
            }
            let target = sample.time > played ? min(sample.time, played + ReplaySession.gapLimit) : played
            shift += target - sample.time
            sample.time = target
            return sample
        }
        return nil
    }

    /// The next readable sample of the file (unreadable lines are skipped); nil at its end.
    private func readSample() -> IMUFile.Sample? {
        while let line = reader.nextLine() {
            if let sample = line.withUnsafeBufferPointer({ IMUFile.sample($0, columns: columns) }) { return sample }
        }
        return nil
    }

    var name: String { configuration.endpoint }

    func start(at time: Double) { startTime = time }

    var finished: Bool? { configuration.loop ? nil : ended }

    func prepare(now: Double, into set: inout PollSet) {}

    func nextDue(now: Double) -> Double? {
        guard let pending, let firstTime, !ended else { return nil }
        return startTime + (Double(lap) * span + pending.time - firstTime) / configuration.speed
    }

    /// Hands over every sample due by `now`, remapped to the body frame and stamped when played.
    func service(now: Double, polled set: PollSet, _ body: (InputEvent) -> Void) {
        while let due = nextDue(now: now), due <= now, let sample = pending {
            lastTime = sample.time
            played = sample.time
            body(.imu(configuration.bodyFrame(sample), time: now))
            let glitches = timeGlitches
            pending = nextSample()
            // A sample left out is counted with the input's refused lines.
            for _ in glitches..<timeGlitches { body(.rejected(nil)) }
            if pending == nil {
                guard configuration.loop, let firstTime else {
                    ended = true
                    return
                }
                span = lastTime - firstTime + 0.01
                reader.rewind()
                _ = reader.nextLine()  // the header
                (shift, played, following) = (0, nil, nil)
                pending = nextSample()
                lap += 1
            }
        }
    }
}

/// Reads a file line by line through a fixed buffer.
struct LineReader {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 65536)
    private var start = 0
    private var end = 0
    private var atEnd = false

    init(path: String) throws(POSIX.Failure) {
        fd = try POSIX.openFile(path)
    }

    mutating func rewind() {
        POSIX.rewind(fd)
        start = 0
        end = 0
        atEnd = false
    }

    /// The next line without its line ending; nil at the end of the file.
    mutating func nextLine() -> [UInt8]? {
        while true {
            if let newline = buffer[start..<end].firstIndex(of: 0x0A) {
                var line = Array(buffer[start..<newline])
                if line.last == 0x0D { line.removeLast() }
                start = newline + 1
                return line
            }
            if atEnd {
                guard start < end else { return nil }
                let line = Array(buffer[start..<end])
                start = end
                return line
            }
            // Move what is left to the front and read more.
            if start > 0 {
                buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
                end -= start
                start = 0
            }
            if end == buffer.count { buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count)) }
            let outcome = buffer.withUnsafeMutableBytes { raw in
                POSIX.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[end...]))
            }
            if case .bytes(let got) = outcome, got > 0 { end += got } else { atEnd = true }
        }
    }
}
