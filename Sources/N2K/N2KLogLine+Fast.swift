/// The two forms a long recording is mostly in (candump -l, canboat's plain), read straight from the bytes.
extension N2KLogLine {
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
}
