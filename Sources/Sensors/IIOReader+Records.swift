import CPosix
import Platform

/// Buffered mode: records read from the character device, decoded with their kernel timestamps.
extension IIOReader {
    func drain(_ body: (IMUReading, Double) -> Void) throws(IMUError) {
        guard recordSize > 0 else { return }
        while true {
            let outcome = record.withUnsafeMutableBytes {
                POSIX.read(bufferFD, into: UnsafeMutableRawBufferPointer(rebasing: $0[pendingBytes...]))
            }
            guard case .bytes(let got) = outcome else {
                guard case .failed(let code) = outcome else { break }
                readErrors += 1
                throw .iio("iio: cannot read \(characterDevice ?? "the buffer"): \(POSIX.message(code))")
            }
            if got == 0 { break }
            pendingBytes += got
            if pendingBytes < record.count { break }
            try deliver(body)
        }
        try deliver(body)
    }

    /// Decodes every whole record in `record[0..<pendingBytes]` and keeps the tail.
    func deliver(_ body: (IMUReading, Double) -> Void) throws(IMUError) {
        let count = pendingBytes / recordSize
        guard count > 0 else { return }
        let newest = timestampOffset.map { timestamp(at: (count - 1) * recordSize + $0) }
        record.withUnsafeBytes { raw in
            for index in 0..<count {
                let base = index * recordSize
                var reading = IMUReading(accelerometer: .zero, gyroscope: .zero)
                var values = SIMD3<Double>(0, 0, 0)
                for slot in 0..<(hasMagnetometer ? 9 : 6) {
                    let channel = channels[slot]
                    let value = channel.type.value(raw, at: base + channel.byteOffset)
                    values[slot % 3] = (value + channel.offset) * channel.scale
                    if slot == 2 { reading.accelerometer = values }
                    if slot == 5 { reading.gyroscope = values }
                    if slot == 8 { reading.magnetometer = values }
                }
                var age = 0.0
                if let newest, let offset = timestampOffset {
                    age = max(0, Double(newest - timestamp(at: base + offset)) / 1e9)
                }
                body(reading, age)
            }
        }
        let used = count * recordSize
        if used < pendingBytes {
            record.withUnsafeMutableBytes { raw in
                raw.baseAddress!.copyMemory(from: raw.baseAddress! + used, byteCount: pendingBytes - used)
            }
        }
        pendingBytes -= used
    }

    func timestamp(at offset: Int) -> Int64 {
        record.withUnsafeBytes { raw in
            var value: UInt64 = 0
            for byte in 0..<8 { value |= UInt64(raw[offset + byte]) << (8 * UInt64(byte)) }
            return Int64(bitPattern: value)
        }
    }
}
