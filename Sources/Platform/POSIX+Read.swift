import CPosix

/// Files read whole, and opened to read: only a file, never a device, a pipe or a folder.
extension POSIX {
    /// Opens a file to read: a device, a pipe, a socket or a folder named where a file belongs (`polar = "/dev/zero"`
    /// read without end, a serial port or a FIFO waited on for ever, the loop held before it served anything) is
    /// opened without waiting and refused (EINVAL) before a byte is read.
    public static func openFile(_ path: String) throws(Failure) -> Int32 {
        let fd = try open(path, O_RDONLY | O_NONBLOCK)
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw Failure(operation: "cannot stat", path: path, code: code)
        }
        guard Int32(info.st_mode) & S_IFMT == S_IFREG else {
            close(fd)
            throw Failure(operation: "not a file", path: path, code: EINVAL)
        }
        return fd
    }

    /// Reads a whole file (``openFile(_:)``); `-` is standard input. A file longer than `limit` bytes is refused
    /// (EFBIG), so a broken or hostile file cannot take the memory.
    public static func readFile(_ path: String, limit: Int = .max) throws(Failure) -> [UInt8] {
        let fd = path == "-" ? 0 : try openFile(path)
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            switch chunk.withUnsafeMutableBytes({ read(fd, into: $0) }) {
            case .bytes(let got):
                guard bytes.count + got <= limit else {
                    throw Failure(operation: "too long to read", path: path, code: EFBIG)
                }
                bytes.append(contentsOf: chunk[0..<got])
            case .end: return bytes
            case .wouldBlock: continue
            case .failed(let code): throw Failure(operation: "cannot read", path: path, code: code)
            }
        }
    }
}
