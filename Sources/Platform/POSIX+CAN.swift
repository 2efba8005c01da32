import CPosix

/// SocketCAN (`PF_CAN`, `CAN_RAW`): one raw socket on an interface, frames read and written as the kernel's 16-byte
/// `struct can_frame` (the identifier with its flags, the length, 8 bytes of data), error frames included.
extension POSIX {
    /// A frame as the kernel gives it: `id` with its flags (``canExtended``, ``canError``...), `count` bytes of
    /// `data` (least significant byte first).
    public struct RawCANFrame: Equatable, Sendable {
        public var id: UInt32
        public var count: Int
        public var data: UInt64

        public init(id: UInt32, count: Int, data: UInt64) {
            self.id = id
            self.count = count
            self.data = data
        }
    }

    /// The identifier's flags (linux/can.h) and its 29 bits.
    public static let canExtended: UInt32 = 0x8000_0000
    public static let canRemote: UInt32 = 0x4000_0000
    public static let canError: UInt32 = 0x2000_0000
    public static let canIdentifierMask: UInt32 = 0x1FFF_FFFF
    /// An error frame's classes (linux/can/error.h).
    public static let canErrorBusOff: UInt32 = 0x40
    public static let canErrorController: UInt32 = 0x04
    public static let canErrorRestarted: UInt32 = 0x100
    public static let canErrorBusError: UInt32 = 0x80
    public static let canErrorNoAcknowledgement: UInt32 = 0x20

    /// A raw CAN socket bound to `interface`, non-blocking, error frames asked for.
    public static func openCAN(_ interface: String) throws(Failure) -> Int32 {
        while true {
            let fd = interface.withCString { cposix_can_open($0) }
            if fd >= 0 { return fd }
            let code = errno
            if code != EINTR { throw Failure(operation: "cannot open CAN interface", path: interface, code: code) }
        }
    }

    /// One frame from a CAN socket: nil when none waits (`.wouldBlock`) or the read failed (`failure` set).
    public static func readCAN(_ fd: Int32) -> (frame: RawCANFrame?, failure: Int32?) {
        var bytes = (UInt64(0), UInt64(0))
        let result = withUnsafeMutableBytes(of: &bytes) { read(fd, into: $0) }
        switch result {
        case .bytes(let count) where count == 16:
            let head = bytes.0
            let id = UInt32(truncatingIfNeeded: head)
            let length = Int((head >> 32) & 0xFF)
            return (RawCANFrame(id: id, count: min(length, 8), data: bytes.1), nil)
        case .bytes: return (nil, EIO)
        case .wouldBlock: return (nil, nil)
        case .end: return (nil, ENETDOWN)
        case .failed(let code): return (nil, code)
        }
    }

    /// One frame onto a CAN socket: true when the kernel took it; false with the errno (ENOBUFS: the queue is full).
    public static func writeCAN(_ fd: Int32, _ frame: RawCANFrame) -> (sent: Bool, code: Int32) {
        var bytes = (UInt64(frame.id) | UInt64(min(frame.count, 8)) << 32, frame.data)
        let result = withUnsafeBytes(of: &bytes) { write(fd, $0) }
        switch result {
        case .bytes(16): return (true, 0)
        case .failed(let code): return (false, code)
        case .wouldBlock: return (false, EAGAIN)
        default: return (false, EIO)
        }
    }
}
