/// Bytes that stay where they are for as long as anyone holds them: a forecast file the shell has mapped into
/// memory (released with `munmap`), or a copy made here (tests, the importer's own check).
///
/// The core reads forecasts through this and never learns which: a mapped file costs the gateway only the pages an
/// interpolation touches.
public final class GridBytes: @unchecked Sendable {
    public let bytes: UnsafeRawBufferPointer
    private let release: (UnsafeRawBufferPointer) -> Void

    /// Bytes owned by someone else, given back with `release` when the last holder lets go.
    public init(bytes: UnsafeRawBufferPointer, release: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.bytes = bytes
        self.release = release
    }

    /// A copy of `array`, owned here.
    public convenience init(copying array: [UInt8]) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(array.count, 1), alignment: 8)
        array.withUnsafeBytes { source in
            if let base = source.baseAddress, let target = memory.baseAddress {
                target.copyMemory(from: base, byteCount: source.count)
            }
        }
        self.init(bytes: UnsafeRawBufferPointer(rebasing: memory[0..<array.count])) { _ in memory.deallocate() }
    }

    deinit { release(bytes) }

    var count: Int { bytes.count }

    func uint8(at offset: Int) -> UInt8 { bytes[offset] }

    func uint16(at offset: Int) -> UInt16 {
        UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    func int16(at offset: Int) -> Int16 {
        Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int16.self))
    }

    func uint32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    func int64(at offset: Int) -> Int64 {
        Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self))
    }

    func double(at offset: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }
}
