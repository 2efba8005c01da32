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

    /// `(1542316311.158018) can0 09F80100#0102030405060708` in one pass; nil for anything else (the slower reader
    /// below then says no too, or reads what this one does not expect).
    static func fastCandump(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> N2KLogLine? {
        var i = start + 1
        var whole: Int64 = 0
        var fraction = 0.0
        var scale = 0.1
        var digits = 0
        var point = false
        while i < line.count && line[i] != UInt8(ascii: ")") {
            let byte = line[i]
            if byte == UInt8(ascii: ".") {
                guard !point else { return nil }
                point = true
            } else {
                // A UNIX time has 10 digits and a microsecond 6 more: 18 at most keeps the sum in an Int64.
                guard byte >= 48 && byte <= 57, digits < 18 else { return nil }
                digits += 1
                if point {
                    fraction += Double(byte - 48) * scale
                    scale /= 10
                } else {
                    whole = whole * 10 + Int64(byte - 48)
                }
            }
            i += 1
        }
        guard i < line.count, digits > 0 else { return nil }
        i += 1
        // The interface's name, then the frame.
        while i < line.count && line[i] == 32 { i += 1 }
        while i < line.count && line[i] != 32 { i += 1 }
        while i < line.count && line[i] == 32 { i += 1 }
        var id: UInt64 = 0
        var idDigits = 0
        while i < line.count, let value = digit(line[i]) {
            id = id << 4 | value
            idDigits += 1
            i += 1
        }
        guard idDigits == 8, i < line.count, line[i] == UInt8(ascii: "#") else { return nil }
        i += 1
        var data: UInt64 = 0
        var count = 0
        while i + 1 < line.count, let high = digit(line[i]), let low = digit(line[i + 1]) {
            guard count < 8 else { return nil }
            data |= (high << 4 | low) << (UInt64(count) * 8)
            count += 1
            i += 2
        }
        while i < line.count && (line[i] == 32 || line[i] == 13 || line[i] == 10) { i += 1 }
        guard i == line.count else { return nil }
        return .frame(CANFrame(id: UInt32(id), data: data, count: count), time: Double(whole) + fraction)
    }

    /// `2016-02-28T19:57:02.364Z,2,127250,7,255,8,ff,10,...` in one pass; nil for anything unexpected.
    static func fastCanboat(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> N2KLogLine? {
        var comma = start
        while comma < line.count && comma - start < 32 && line[comma] != UInt8(ascii: ",") { comma += 1 }
        guard comma < line.count, line[comma] == UInt8(ascii: ",") else { return nil }
        let time = isoTime(UnsafeBufferPointer(rebasing: line[start..<comma]))
        var i = comma + 1
        func number() -> Int? {
            var value = 0
            var digits = 0
            while i < line.count && line[i] == 32 { i += 1 }
            while i < line.count, line[i] >= 48, line[i] <= 57, digits < 9 {
                value = value * 10 + Int(line[i] - 48)
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if i < line.count && line[i] == UInt8(ascii: ",") { i += 1 }
            return value
        }
        guard let priority = number(), let pgn = number(), let source = number(), let destination = number(),
            let count = number(), priority <= 7, pgn <= 0x3FFFF, source <= 255, destination <= 255, count <= 1785
        else { return nil }
        func byte() -> UInt8? {
            while i < line.count && line[i] == 32 { i += 1 }
            guard i < line.count, let high = digit(line[i]) else { return nil }
            var value = high
            i += 1
            if i < line.count, let low = digit(line[i]) {
                value = value << 4 | low
                i += 1
            }
            while i < line.count && (line[i] == 32 || line[i] == 13 || line[i] == 10) { i += 1 }
            if i < line.count {
                guard line[i] == UInt8(ascii: ",") else { return nil }
                i += 1
            }
            return UInt8(value)
        }
        let identifier = N2KIdentifier(
            priority: UInt8(priority), pgn: UInt32(pgn), source: UInt8(source), destination: UInt8(destination))
        if count <= 8 {
            var data: UInt64 = 0
            for index in 0..<count {
                guard let value = byte() else { return nil }
                data |= UInt64(value) << (UInt64(index) * 8)
            }
            guard i >= line.count else { return nil }
            return .frame(CANFrame(id: identifier.id, data: data, count: count), time: time)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for _ in 0..<count {
            guard let value = byte() else { return nil }
            bytes.append(value)
        }
        guard i >= line.count else { return nil }
        return .message(
            N2KMessage(
                pgn: identifier.pgn, priority: identifier.priority, source: identifier.source,
                destination: identifier.destination, payload: N2KPayload(bytes)), time: time)
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

    // MARK: Numbers

    static func split(_ text: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        text.split(whereSeparator: { $0 == 32 || $0 == 9 || $0 == 13 || $0 == 10 })
    }

    static func hex(_ text: ArraySlice<UInt8>) -> UInt64? {
        guard !text.isEmpty, text.count <= 16 else { return nil }
        var value: UInt64 = 0
        for byte in text {
            let digit: UInt8
            switch byte {
            case 48...57: digit = byte - 48
            case 97...102: digit = byte - 87
            case 65...70: digit = byte - 55
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    static func integer(_ text: ArraySlice<UInt8>) -> Int64? {
        let trimmed = text.filter { $0 != 32 && $0 != 13 && $0 != 10 }
        guard !trimmed.isEmpty, trimmed.count <= 12 else { return nil }
        var value: Int64 = 0
        for byte in trimmed {
            guard byte >= 48 && byte <= 57 else { return nil }
            value = value * 10 + Int64(byte - 48)
        }
        return value
    }

    /// `1542316311.158018`
    static func seconds(_ text: ArraySlice<UInt8>) -> Double? {
        var whole: Int64 = 0
        var fraction = 0.0
        var scale = 0.1
        var seenPoint = false
        var digits = 0
        for byte in text {
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
                continue
            }
            guard byte >= 48 && byte <= 57 else { return nil }
            digits += 1
            guard digits <= 18 else { return nil }
            if seenPoint {
                fraction += Double(byte - 48) * scale
                scale /= 10
            } else {
                whole = whole * 10 + Int64(byte - 48)
            }
        }
        return digits > 0 ? Double(whole) + fraction : nil
    }

    /// `2016-02-28T19:57:02.364Z` (or with a space, or `-` between date and time as canboat's older logs) as UNIX
    /// seconds.
    static func isoTime(_ text: ArraySlice<UInt8>) -> Double? {
        Array(text).withUnsafeBufferPointer { isoTime($0) }
    }

    static func isoTime(_ digits: UnsafeBufferPointer<UInt8>) -> Double? {
        guard digits.count >= 19 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for index in from..<(from + count) {
                guard digits[index] >= 48 && digits[index] <= 57 else { return nil }
                value = value * 10 + Int(digits[index] - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2), (1...12).contains(month), (1...31).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if digits.count > 20, digits[19] == UInt8(ascii: ".") {
            var scale = 0.1
            for byte in digits[20...] {
                guard byte >= 48 && byte <= 57 else { break }
                fraction += Double(byte - 48) * scale
                scale /= 10
            }
        }
        return Double(daysFromCivil(year, month, day)) * 86_400 + Double(hour * 3600 + minute * 60 + second) + fraction
    }

    /// `17:33:21.107`: seconds of the day.
    static func dayTime(_ text: ArraySlice<UInt8>) -> Double? {
        let parts = text.split(separator: UInt8(ascii: ":"))
        guard parts.count == 3, let hours = integer(parts[0]), let minutes = integer(parts[1]),
            let rest = seconds(parts[2])
        else { return nil }
        return Double(hours * 3600 + minutes * 60) + rest
    }

    /// Days since 1970-01-01 of a date in the proleptic Gregorian calendar.
    public static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
