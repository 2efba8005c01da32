import CPosix
import Gateway
import Marine
import Platform
import SignalK

/// Standard output and error for the benchmarks.
enum Console {
    static func out(_ text: String) { POSIX.writeAll(1, text) }
    static func error(_ text: String) { POSIX.writeAll(2, text) }
}

func monotonicSeconds() -> Double { POSIX.monotonic() }

func format(_ value: Double, decimals: Int) -> String { FixedDecimal.text(value, decimals: decimals) }

/// A file written in whole buffers.
struct OutputFile: ~Copyable {
    private let fd: Int32

    init(path: String) throws(POSIX.Failure) {
        fd = try POSIX.open(path, O_WRONLY | O_CREAT | O_TRUNC)
    }

    deinit { POSIX.close(fd) }

    func write(_ bytes: [UInt8]) throws(POSIX.Failure) {
        var offset = 0
        while offset < bytes.count {
            let outcome = bytes.withUnsafeBytes { POSIX.write(fd, UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            guard case .bytes(let written) = outcome else {
                throw POSIX.Failure(operation: "cannot write", path: "", code: POSIX.errno)
            }
            offset += written
        }
    }
}

/// Reads a file (or standard input, `-`) through one fixed buffer: a benchmark's memory does not grow with its
/// input.
func readChunks(_ path: String, chunk: Int = 1 << 20, _ body: (UnsafeBufferPointer<UInt8>) -> Void)
    throws(POSIX.Failure) -> Int
{
    let fd = path == "-" ? 0 : try POSIX.open(path, O_RDONLY)
    defer { if fd != 0 { POSIX.close(fd) } }
    var buffer = [UInt8](repeating: 0, count: chunk)
    var total = 0
    while true {
        let outcome = buffer.withUnsafeMutableBytes { POSIX.read(fd, into: $0) }
        guard case .bytes(let got) = outcome, got > 0 else { break }
        total += got
        buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<got])) }
    }
    return total
}

/// Prints a benchmark's figures: one JSON object (`--json`), else the sentence `text`.
func report(json: Bool, text: @autoclosure () -> String, _ fields: (inout JSONWriter) -> Void) {
    guard json else { return Console.out(text() + "\n") }
    var writer = JSONWriter()
    writer.beginObject()
    fields(&writer)
    writer.endObject()
    Console.out(writer.text + "\n")
}
