/// One line of a recorded NMEA 2000 bus, in the text forms recordings and gateways use:
///
///     (1542316311.158018) can0 09F80100#0102030405060708          candump -l (can-utils), replayed by canplayer
///     <0x18eeff01> [8] 05 a0 be 1c 00 a0 a0 c0                    candump's older form (no time)
///     2016-02-28T19:57:02.364Z,2,127250,7,255,8,ff,10,3b,ff,...   canboat's plain and fast formats (time, priority,
///                                                                 PGN, source, destination, length, bytes): a frame
///                                                                 when 8 bytes or fewer, a whole message when more
///     17:33:21.107 R 19F51323 01 2F 30 70 00 2F 30 70             Yacht Devices RAW (YDWG-02, YDEN-02), R received,
///                                                                 T sent
///
/// A line is a frame or a message, with its time when it says one (UNIX seconds; a YD line's time of day). Anything
/// else is nil (counted by the reader): a comment, a header, a line cut short, hex that is not hex.
public enum N2KLogLine: Equatable, Sendable {
    case frame(CANFrame, time: Double?)
    case message(N2KMessage, time: Double?)

    public static func parse(_ text: some Collection<UInt8>) -> N2KLogLine? {
        if let parsed = text.withContiguousStorageIfAvailable({ parse(bytes: $0) }) { return parsed }
        return Array(text).withUnsafeBufferPointer { parse(bytes: $0) }
    }

    /// The same over bytes in place: candump -l and canboat's forms, the busiest, are read in one pass with no
    /// allocation for a frame (a recorded bus of hundreds of megabytes replays at the speed of the disk).
    static func parse(bytes line: UnsafeBufferPointer<UInt8>) -> N2KLogLine? {
        var start = 0
        while start < line.count && (line[start] == 32 || line[start] == 9) { start += 1 }
        guard start < line.count else { return nil }
        switch line[start] {
        case UInt8(ascii: "("): return fastCandump(line, from: start) ?? candump(Array(line))
        case UInt8(ascii: "<"): return oldCandump(Array(line))
        case UInt8(ascii: "#"): return nil
        default: break
        }
        // canboat's forms start with the date and have a comma within 30 bytes; Yacht Devices' with the time of day
        // and have none.
        if let parsed = fastCanboat(line, from: start) { return parsed }
        if line.contains(UInt8(ascii: ",")) { return canboat(Array(line)) }
        return yachtDevices(Array(line))
    }

    /// A hex digit's value, or nil.
    @inline(__always)
    static func digit(_ byte: UInt8) -> UInt64? {
        switch byte {
        case 48...57: UInt64(byte - 48)
        case 97...102: UInt64(byte - 87)
        case 65...70: UInt64(byte - 55)
        default: nil
        }
    }

    // MARK: The forms

    /// `(1542316311.158018) can0 09F80100#0102030405060708`
    static func candump(_ line: [UInt8]) -> N2KLogLine? {
        guard let close = line.firstIndex(of: UInt8(ascii: ")")),
            let time = seconds(line[1..<close])
        else { return nil }
        let words = split(line[(close + 1)...])
        guard words.count >= 2, let hash = words[1].firstIndex(of: UInt8(ascii: "#")) else { return nil }
        let idText = words[1][words[1].startIndex..<hash]
        let dataText = words[1][(hash + 1)...]
        guard idText.count == 8, let id = hex(idText), dataText.count % 2 == 0, dataText.count <= 16 else { return nil }
        var bytes: [UInt8] = []
        var index = dataText.startIndex
        while index < dataText.endIndex {
            guard let byte = hex(dataText[index..<(index + 2)]) else { return nil }
            bytes.append(UInt8(byte))
            index += 2
        }
        return .frame(CANFrame(id: UInt32(id), bytes: bytes), time: time)
    }

    /// `<0x18eeff01> [8] 05 a0 be 1c 00 a0 a0 c0`
    static func oldCandump(_ line: [UInt8]) -> N2KLogLine? {
        let words = split(line[...])
        guard words.count >= 2, words[0].count > 4, words[0].last == UInt8(ascii: ">"),
            let id = hex(words[0].dropFirst(3).dropLast()),
            words[1].first == UInt8(ascii: "["), let count = integer(words[1].dropFirst().dropLast()),
            words.count == 2 + Int(count), count <= 8
        else { return nil }
        var bytes: [UInt8] = []
        for word in words[2...] {
            guard word.count == 2, let byte = hex(word) else { return nil }
            bytes.append(UInt8(byte))
        }
        return .frame(CANFrame(id: UInt32(id), bytes: bytes), time: nil)
    }

    /// `2016-02-28T19:57:02.364Z,2,127250,7,255,8,ff,10,...`
    static func canboat(_ line: [UInt8]) -> N2KLogLine? {
        let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard fields.count >= 6, let priority = integer(fields[1]), let pgn = integer(fields[2]),
            let source = integer(fields[3]), let destination = integer(fields[4]), let count = integer(fields[5]),
            priority <= 7, pgn <= 0x3FFFF, source <= 255, destination <= 255, count >= 0, count <= 1785,
            fields.count == 6 + Int(count)
        else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(count))
        for field in fields[6...] {
            let trimmed = field.filter { $0 != 13 && $0 != 10 && $0 != 32 }
            guard !trimmed.isEmpty, trimmed.count <= 2, let byte = hex(trimmed[...]) else { return nil }
            bytes.append(UInt8(byte))
        }
        let time = isoTime(fields[0])
        let identifier = N2KIdentifier(
            priority: UInt8(priority), pgn: UInt32(pgn), source: UInt8(source), destination: UInt8(destination))
        if bytes.count <= 8 { return .frame(CANFrame(id: identifier.id, bytes: bytes), time: time) }
        return .message(
            N2KMessage(
                pgn: identifier.pgn, priority: identifier.priority, source: identifier.source,
                destination: identifier.destination, payload: N2KPayload(bytes)), time: time)
    }

    /// `17:33:21.107 R 19F51323 01 2F 30 70 00 2F 30 70`
    static func yachtDevices(_ line: [UInt8]) -> N2KLogLine? {
        let words = split(line[...])
        guard words.count >= 3, words[1] == [UInt8(ascii: "R")][...] || words[1] == [UInt8(ascii: "T")][...],
            words[2].count == 8, let id = hex(words[2]), words.count <= 11
        else { return nil }
        var bytes: [UInt8] = []
        for word in words[3...] {
            guard word.count == 2, let byte = hex(word) else { return nil }
            bytes.append(UInt8(byte))
        }
        return .frame(CANFrame(id: UInt32(id), bytes: bytes), time: dayTime(words[0]))
    }
}
