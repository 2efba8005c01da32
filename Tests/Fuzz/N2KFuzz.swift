// libFuzzer entry point for the NMEA 2000 codec and its conversion to 0183. Built by `make fuzz` together with
// Sources/N2K, Sources/NMEA, Sources/Marine and Bridge's N2KInbound and AISConversion (their imports taken off, as one
// module). The first byte picks the reading:
//   even: the bytes are recorded-bus text, line by line (candump -l, canboat's forms, an old candump, Yacht Devices);
//   odd:  the bytes are raw frames off a bus, 13 bytes each (4 of identifier, 1 of length, 8 of data).
// Every frame goes through the receiver (fast packets, ISO transport, addressed to the node's address), the node (a
// claim contested, requests answered) and the converter. Properties: nothing traps; the receiver's work under way
// stays bounded; every frame the node or the receiver would send holds at most 8 bytes and an identifier of 29 bits;
// every 0183 sentence made fits in 82 bytes, frames again and decodes (or is refused for a value out of its range).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: size)
    guard let mode = bytes.first else { return 0 }
    var receiver = N2KReceiver()
    var node = N2KNode(
        settings: N2KNode.Settings(
            name: DeviceName(uniqueNumber: 7, manufacturer: 2046, function: 135, deviceClass: 25),
            preferredAddress: 35,
            product: ProductInformation(productCode: 1, model: "fuzz", software: "1", modelVersion: "", serial: "7"),
            configuration: ConfigurationInformation(installation1: "", installation2: "", manufacturer: ""),
            transmits: [130306], receives: [130306]))
    var inbound = N2KInbound()
    var time = 0.0
    func sent(_ actions: [N2KNode.Action]) {
        for case .send(let message) in actions {
            for frame in N2KSender.frames(message, sequence: 0) {
                precondition(frame.count <= 8 && frame.id <= 0x1FFF_FFFF)
            }
        }
    }
    sent(node.start(at: 0))
    func take(_ message: N2KMessage) {
        precondition(message.payload.count <= 1785)
        _ = N2KValue.decode(message).value.fields
        sent(node.received(message, at: time))
        inbound.convert(message, at: time) { sentence in
            precondition(sentence.wireLength <= 82)
            guard let again = try? Sentence(parsing: sentence.wireBytes, maximumLength: 82) else {
                preconditionFailure("a converted sentence does not frame: \(sentence)")
            }
            do throws(DecodeError) { _ = try Message(again) } catch {
                if case .implausible = error {
                } else if case .unsupported = error {
                } else {
                    preconditionFailure("a converted sentence does not decode: \(sentence) \(error)")
                }
            }
        }
    }
    func feed(_ frame: CANFrame) {
        time += 0.01
        var replies: [CANFrame] = []
        receiver.feed(frame, own: node.address, at: time, replies: &replies) { take($0) }
        for reply in replies { precondition(reply.count <= 8 && reply.id <= 0x1FFF_FFFF) }
        if Int(time * 100) % 25 == 0 {
            receiver.expire(at: time)
            sent(node.tick(at: time))
        }
    }
    let body = UnsafeBufferPointer(rebasing: bytes[1...])
    if mode & 1 == 0 {
        var start = 0
        for index in 0...body.count where index == body.count || body[index] == 10 {
            let line = UnsafeBufferPointer(rebasing: body[start..<index])
            start = index + 1
            switch N2KLogLine.parse(line) {
            case .frame(let frame, _)?: feed(frame)
            case .message(let message, _)?: take(message)
            case nil: break
            }
        }
    } else {
        var index = 0
        while index + 13 <= body.count {
            var id: UInt32 = 0
            for k in 0..<4 { id = id << 8 | UInt32(body[index + k]) }
            var data: UInt64 = 0
            for k in 0..<8 { data |= UInt64(body[index + 5 + k]) << (UInt64(k) * 8) }
            feed(CANFrame(id: id, data: data, count: Int(body[index + 4] % 9)))
            index += 13
        }
    }
    return 0
}
