/// What each byte does to the line being framed: its start, its tag block, its end, a sentence finished or refused.
extension SentenceFramer {
    @inline(__always)
    mutating func consume<Sink: FramerSink>(_ byte: UInt8, _ sink: inout Sink) {
        lastWasCarriageReturn = lastWasCarriageReturn && byte == 0x0A
        switch byte {
        case UInt8(ascii: "$") where !isInCommentLine, UInt8(ascii: "!") where !isInCommentLine:
            switch state {
            case .sentence: reject(.truncated(length: lineLength), &sink)
            case .garbage: rejectGarbage(&sink)
            case .tagBlock where !tagClosed: reject(.badTagBlock, &sink)
            case .tagBlock, .idle: break
            }
            beginLine(.sentence)
            append(byte)
        case 0x0D, 0x0A:
            endLine(&sink)
            if byte == 0x0D || !lastWasCarriageReturn { lineNumber &+= 1 }
            lastWasCarriageReturn = byte == 0x0D
            return
        case UInt8(ascii: "\\") where state == .idle:
            beginLine(.tagBlock)
        case UInt8(ascii: "\\") where state == .tagBlock:
            closeTagBlock()
        default:
            switch state {
            case .idle:
                if byte == 0x20 || byte == 0x09 { return }
                beginLine(.garbage)
                append(byte)
            case .garbage:
                append(byte)
            case .tagBlock:
                if tagClosed {
                    // Bytes after a closed tag block that are not a start character: not a tagged sentence.
                    tagIsBad = true
                } else if tagCount < 128 {
                    tagStorage[tagCount] = byte
                    tagCount += 1
                } else {
                    tagOverflow = true
                }
            case .sentence:
                if firstInvalid == nil && (byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\\")) {
                    firstInvalid = (byte, lineLength)
                }
                appendToSentence(byte)
            }
        }
    }

    /// A `#` comment line of a log runs to its line end, whatever it contains (`# Note: use of $AP prefix`).
    var isInCommentLine: Bool {
        state == .garbage && configuration.skipsCommentLines && pending.storage[0] == UInt8(ascii: "#")
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if lineLength < Sentence.capacity {
            pending.storage[lineLength] = byte
        }
        lineLength &+= 1
    }

    mutating func beginLine(_ newState: State) {
        if newState != .sentence || state != .tagBlock {
            pendingTag = nil
            tagIsBad = false
        }
        if newState == .tagBlock {
            tagCount = 0
            tagOverflow = false
            tagClosed = false
        }
        state = newState
        lineLength = 0
        firstInvalid = nil
        star = -1
        sum = 0
    }

    mutating func closeTagBlock() {
        guard !tagClosed, !tagOverflow else {
            tagIsBad = true
            return
        }
        tagClosed = true
        let count = tagCount
        let parsed = tagStorage.span.withUnsafeBufferPointer { buffer in
            TagBlock.parse(UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
        if let parsed {
            pendingTag = parsed
        } else {
            tagIsBad = true
        }
    }

    mutating func endLine<Sink: FramerSink>(_ sink: inout Sink) {
        switch state {
        case .idle:
            break
        case .garbage:
            rejectGarbage(&sink)
        case .tagBlock:
            reject(.badTagBlock, &sink)
        case .sentence:
            finishSentence(&sink)
        }
        state = .idle
        lineLength = 0
        pendingTag = nil
        tagIsBad = false
    }

    mutating func finishSentence<Sink: FramerSink>(_ sink: inout Sink) {
        if let invalid = firstInvalid {
            return reject(.invalidByte(invalid.byte, offset: invalid.offset), &sink)
        }
        if tagIsBad {
            return reject(.badTagBlock, &sink)
        }
        guard lineLength <= Sentence.capacity else { return reject(.tooLong(length: lineLength + 2), &sink) }
        pending.count = lineLength
        do {
            try pending.validate(requiresChecksum: configuration.requiresChecksum, star: star, sum: sum)
        } catch {
            return reject(error, &sink)
        }
        guard pending.count + 2 <= configuration.maximumLength else {
            return reject(.tooLong(length: pending.count + 2), &sink)
        }
        pending.tagBlock = pendingTag
        pending.line = lineNumber
        statistics.sentences &+= 1
        // Lent through its address: `sink.take(pending)` made a 400-byte copy of the sentence for every call.
        sink.take(&pending)
        state = .idle
    }

    mutating func rejectGarbage<Sink: FramerSink>(_ sink: inout Sink) {
        if configuration.skipsCommentLines && pending.storage[0] == UInt8(ascii: "#") {
            statistics.comments &+= 1
            state = .idle
            return
        }
        reject(.noStartCharacter(length: lineLength), &sink)
    }

    mutating func reject<Sink: FramerSink>(_ error: FramingError, _ sink: inout Sink) {
        statistics.rejects.record(error.reason)
        let kept = min(lineLength, Sentence.capacity)
        let excerpt = pending.storage.span.withUnsafeBufferPointer { buffer in
            Excerpt(UnsafeBufferPointer(rebasing: buffer[0..<kept]), lineLength: lineLength, line: lineNumber)
        }
        sink.reject(error, excerpt)
        state = .idle
    }
}
