import CPosix
import Engine
import Marine
import NMEA
import Platform
import Router

/// The boat's black box: every input sentence with an NMEA 4.10 tag block (`s:` the input's name, `c:` the receive
/// time in UNIX milliseconds), in files rotated by size or age, so that `telltale replay` plays them back on their
/// own clock. Files are named `telltale-<UNIX seconds>.nmea` in the recording directory.
public final class Recorder {
    public struct Settings: Hashable, Sendable {
        public var directory: String
        /// Start a new file past this many bytes.
        public var rotateBytes = 50 * 1024 * 1024
        /// Start a new file after this many seconds.
        public var rotateSeconds = 3600.0

        public init(directory: String) {
            self.directory = directory
        }
    }

    public let settings: Settings
    public private(set) var files: [String] = []
    public private(set) var sentences = 0
    private var fd: Int32 = -1
    private var written = 0
    private var openedAt = 0.0
    private var buffer: [UInt8] = []
    private var imuFD: Int32 = -1
    private var imuBuffer: [UInt8] = []
    /// The IMU CSV beside the current NMEA file: created with the first IMU sample, so a gateway without an IMU
    /// leaves no empty CSV files.
    private var imuPath: String?

    public init(settings: Settings) throws(POSIX.Failure) {
        self.settings = settings
        try POSIX.makeDirectory(settings.directory)
    }

    /// The monotonic time of the last flush (the service flushes once a second).
    var lastFlush = 0.0
    /// The monotonic time the files were last sent on to the disk (``startWriteback()``).
    var lastWriteback = 0.0
    /// How often what is written goes on to the disk: a power cut loses about this much of a recording, not the
    /// half minute the kernel would otherwise hold it, and the card is not written every second.
    static let writebackInterval = 5.0

    deinit { close() }

    /// Writes what is buffered, waits for it to reach the disk, and closes the files.
    public func close() {
        flush()
        if fd >= 0 {
            try? POSIX.sync(fd, naming: "the recording")
            POSIX.close(fd)
        }
        if imuFD >= 0 {
            try? POSIX.sync(imuFD, naming: "the IMU recording")
            POSIX.close(imuFD)
        }
        fd = -1
        imuFD = -1
    }

    /// Records one IMU sample (body frame, as the engine got it) in the CSV beside the current NMEA file.
    public func record(imu sample: IMUFile.Sample, unixTime: Double) {
        if fd < 0 || written >= settings.rotateBytes || unixTime - openedAt >= settings.rotateSeconds {
            rotate(at: unixTime)
        }
        if imuFD < 0, let path = imuPath {
            imuPath = nil
            imuFD = (try? POSIX.open(path, O_WRONLY | O_CREAT | O_EXCL)) ?? -1
            if imuFD >= 0 {
                files.append(path)
                POSIX.writeAll(imuFD, "time_s,ax,ay,az,gx,gy,gz,mx,my,mz\n")
            }
        }
        guard imuFD >= 0 else { return }
        func number(_ value: Double, _ decimals: Int) -> String { FixedDecimal.text(value, decimals: decimals) }
        let a = sample.accelerometer
        let g = sample.gyroscope
        var fields = [
            number(unixTime, 3), number(a.x, 4), number(a.y, 4), number(a.z, 4), number(g.x, 4), number(g.y, 4),
            number(g.z, 4),
        ]
        if let m = sample.magnetometer {
            fields += [number(m.x, 3), number(m.y, 3), number(m.z, 3)]
        } else {
            fields += ["", "", ""]
        }
        let line = fields.joined(separator: ",") + "\n"
        imuBuffer.append(contentsOf: Array(line.utf8))
        written += line.utf8.count
        if imuBuffer.count >= 16 * 1024 { flush() }
    }

    /// Records one sentence received on input `source` at `unixTime` (seconds).
    public func record(_ sentence: Sentence, source: String, unixTime: Double) {
        if fd < 0 || written >= settings.rotateBytes || unixTime - openedAt >= settings.rotateSeconds {
            rotate(at: unixTime)
        }
        guard fd >= 0 else { return }
        let block = TagBlock(unixMilliseconds: Int64((unixTime * 1000).rounded()), source: source)
        let before = buffer.count
        buffer.append(contentsOf: block.encoded())
        sentence.appendWire(to: &buffer)
        written += buffer.count - before
        sentences += 1
        if buffer.count >= 16 * 1024 { flush() }
    }

    /// Starts writing the files' new pages to the disk, without waiting for them.
    public func startWriteback() {
        if fd >= 0 { POSIX.startWriteback(fd) }
        if imuFD >= 0 { POSIX.startWriteback(imuFD) }
    }

    /// Writes what is buffered (also done every 16 KiB and on rotation).
    public func flush() {
        if fd >= 0, !buffer.isEmpty {
            POSIX.writeAll(fd, buffer)
            buffer.removeAll(keepingCapacity: true)
        }
        if imuFD >= 0, !imuBuffer.isEmpty {
            POSIX.writeAll(imuFD, imuBuffer)
            imuBuffer.removeAll(keepingCapacity: true)
        }
    }

    private func rotate(at unixTime: Double) {
        flush()
        startWriteback()
        if fd >= 0 { POSIX.close(fd) }
        var path = settings.directory + "/telltale-\(Int(unixTime)).nmea"
        var suffix = 1
        while POSIX.exists(path) {
            path = settings.directory + "/telltale-\(Int(unixTime))-\(suffix).nmea"
            suffix += 1
        }
        fd = (try? POSIX.open(path, O_WRONLY | O_CREAT | O_EXCL)) ?? -1
        if fd >= 0 { files.append(path) }
        if imuFD >= 0 { POSIX.close(imuFD) }
        imuFD = -1
        imuPath = String(path.dropLast(5)) + ".imu.csv"
        written = 0
        openedAt = unixTime
    }
}
