import CPosix
import Platform

/// Reading and writing sysfs attributes.
extension IIOReader {
    static func exists(_ path: String) -> Bool { POSIX.exists(path) }

    static func lastComponent(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    static func readText(_ path: String) -> String? {
        guard let fd = try? POSIX.open(path, O_RDONLY) else { return nil }
        defer { POSIX.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let got: Int
        switch buffer.withUnsafeMutableBytes({ POSIX.read(fd, into: $0) }) {
        case .bytes(let count): got = count
        case .end: got = 0
        case .wouldBlock, .failed: return nil
        }
        let text = String(decoding: buffer[0..<got], as: UTF8.self)
        return String(text.drop { $0 == " " }.reversed().drop { $0 == "\n" || $0 == " " }.reversed())
    }

    static func readNumber(_ path: String) -> Double? { readText(path).flatMap { Double($0) } }

    @discardableResult
    static func writeText(_ path: String, _ text: String) -> Bool {
        guard let fd = try? POSIX.open(path, O_WRONLY | O_TRUNC) else { return false }
        defer { POSIX.close(fd) }
        var line = text + "\n"
        return line.withUTF8 { POSIX.write(fd, UnsafeRawBufferPointer($0)) } == .bytes(line.utf8.count)
    }

    static func list(_ directory: String) -> [String] { POSIX.list(directory).sorted() }
}
