import CPosix
import Platform

/// Buffered mode: the device's scan elements enabled, its buffer started, its character device opened.
extension IIOReader {
    func startBuffer(main: String, used: Int, trigger: String?, node: String) throws(IMUError) {
        let scan = "\(main)/scan_elements"
        // Stop a buffer left running, choose the channels, then start it.
        _ = Self.writeText("\(main)/buffer/enable", "0")
        if let trigger, !Self.writeText("\(main)/trigger/current_trigger", trigger) {
            throw .iio("iio: cannot set \(main)/trigger/current_trigger to \(trigger)")
        }
        var elements: [(index: Int, type: IIOScanType, slot: Int?, timestamp: Bool)] = []
        for slot in 0..<used {
            let name = "in_\(Self.kinds[slot / 3])_\(Self.axes[slot % 3])"
            guard Self.writeText("\(scan)/\(name)_en", "1") else {
                throw .iio(
                    "iio: cannot enable \(scan)/\(name)_en (write access to the device's sysfs is needed for mode=buffered)"
                )
            }
            enabledPaths.append("\(scan)/\(name)_en")
            guard let index = Self.readNumber("\(scan)/\(name)_index"),
                let typeText = Self.readText("\(scan)/\(name)_type"),
                let type = IIOScanType(typeText)
            else {
                throw .iio("iio: \(scan)/\(name)_index or _type cannot be read")
            }
            channels[slot].index = Int(index)
            channels[slot].type = type
            elements.append((Int(index), type, slot, false))
        }
        if Self.exists("\(scan)/in_timestamp_en"), Self.writeText("\(scan)/in_timestamp_en", "1"),
            let index = Self.readNumber("\(scan)/in_timestamp_index"),
            let typeText = Self.readText("\(scan)/in_timestamp_type"), let type = IIOScanType(typeText)
        {
            enabledPaths.append("\(scan)/in_timestamp_en")
            elements.append((Int(index), type, nil, type.storageBits == 64))
        }
        // Other channels the device has stay as they are; the record holds every enabled one, in index order.
        for entry in Self.list(scan) where entry.hasSuffix("_en") && !enabledPaths.contains("\(scan)/\(entry)") {
            let name = String(entry.dropLast(3))
            if Self.readNumber("\(scan)/\(entry)") == 1, let index = Self.readNumber("\(scan)/\(name)_index"),
                let typeText = Self.readText("\(scan)/\(name)_type"), let type = IIOScanType(typeText)
            {
                elements.append((Int(index), type, nil, false))
            }
        }
        elements.sort { $0.index < $1.index }
        var offset = 0
        var largest = 1
        for element in elements {
            let size = element.type.storageBytes
            offset = (offset + size - 1) / size * size
            if let slot = element.slot {
                channels[slot].byteOffset = offset
            } else if element.timestamp {
                timestampOffset = offset
            }
            offset += size
            largest = max(largest, size)
        }
        recordSize = (offset + largest - 1) / largest * largest
        // Room for a good batch of records whatever the device's channels.
        if recordSize * 32 > record.count { record = [UInt8](repeating: 0, count: recordSize * 32) }
        _ = Self.writeText("\(main)/buffer/length", "128")
        guard Self.writeText("\(main)/buffer/enable", "1") else {
            throw .iio("iio: cannot start the buffer (\(main)/buffer/enable); does the device need trigger=...?")
        }
        do {
            bufferFD = try POSIX.open(node, O_RDONLY | O_NONBLOCK)
        } catch {
            throw .iio("iio: \(error)")
        }
    }
}
