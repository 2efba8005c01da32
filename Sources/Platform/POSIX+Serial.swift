import CPosix

/// Serial lines through the funnel: opened raw from the first call, so that nothing received is echoed back.
extension POSIX {
    /// Opens `path` as an NMEA 0183 line: raw 8N1 at `baud`, no echo, no flow control, modem lines ignored,
    /// non-blocking, locked for this process alone (``cposix_serial_open`` says how). The failure keeps the errno:
    /// `ENOENT` no such device, `EACCES`/`EPERM` refused, `ENOTTY` not a serial line, `EINVAL` a baud rate the line
    /// cannot do, `EWOULDBLOCK`/`EBUSY` in use by another program.
    public static func openSerial(_ path: String, baud: Int) throws(Failure) -> Int32 {
        while true {
            let fd = cposix_serial_open(path, Int32(clamping: baud))
            if fd >= 0 { return fd }
            let code = errno
            if code != EINTR { throw Failure(operation: "cannot open", path: path, code: code) }
        }
    }
}
