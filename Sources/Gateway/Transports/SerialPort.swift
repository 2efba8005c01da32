import CPosix
import Platform

/// One serial device, opened raw through the funnel (``POSIX/openSerial(_:baud:)``): nothing it receives is ever
/// echoed back onto the bus, which a line left in the tty's default mode while it is configured does.
///
/// The configured name is resolved before every open (`/dev/serial0`, `/dev/serial/by-id/...` are symbolic links),
/// so a USB adapter that comes back under another ttyUSB number is found again. libserialport lists the ports
/// (`telltale ports`); it does not open them: its open leaves the line echoing while it configures it, and its read
/// takes an interrupted read (EINTR) for a failed device.
final class SerialPort {
    /// Why a device could not be opened, in words that say what to do.
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let device: String
        let code: Int32

        var description: String {
            let named = device == path ? path : "\(path) (\(device))"
            switch code {
            case ENOENT, ENODEV, ENXIO:
                return "\(named): no such device; plug the adapter in (it is opened as soon as it appears)"
            case EACCES, EPERM:
                return "\(named): permission denied; the service user needs the dialout group, and the unit's"
                    + " DeviceAllow must admit the device (\(POSIX.message(code)))"
            case ENOTTY:
                return "\(named): not a serial port"
            case EINVAL:
                return "\(named): the line cannot do this baud rate"
            case EWOULDBLOCK, EBUSY:
                return "\(named): in use by another program (gpsd? another gateway?)"
            default:
                return "\(named): cannot open: \(POSIX.message(code))"
            }
        }

        /// Whether the device is simply not there (yet): waited for quietly rather than warned about each time.
        var isMissing: Bool { code == ENOENT || code == ENODEV || code == ENXIO }
    }

    let path: String
    let baud: Int
    private(set) var descriptor: Int32 = -1

    init(path: String, baud: Int) {
        self.path = path
        self.baud = baud
    }

    deinit { close() }

    var isOpen: Bool { descriptor >= 0 }

    func open() throws(Failure) {
        close()
        let device = POSIX.realPath(path) ?? path
        do {
            descriptor = try POSIX.openSerial(device, baud: baud)
        } catch {
            throw Failure(path: path, device: device, code: error.code)
        }
    }

    func close() {
        guard descriptor >= 0 else { return }
        POSIX.close(descriptor)
        descriptor = -1
    }

    /// Reads what is there: the count, 0 for nothing, nil when the device failed (unplugged).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard isOpen else { return nil }
        switch POSIX.read(descriptor, into: buffer) {
        case .bytes(let count): return count
        // A tty's 0 is nothing now; a hang-up shows in poll's POLLHUP.
        case .wouldBlock, .end: return 0
        case .failed: return nil
        }
    }

    /// Writes without blocking; the count written, nil when the device failed.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard isOpen else { return nil }
        switch POSIX.write(descriptor, bytes) {
        case .bytes(let count): return count
        case .wouldBlock, .end: return 0
        case .failed: return nil
        }
    }
}
