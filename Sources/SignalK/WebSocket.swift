/// RFC 6455 on the server side, sans-I/O: the handshake's accept key, frames decoded from a client's bytes (masked,
/// possibly fragmented, bounded in size) and frames encoded to it (unmasked).
public enum WebSocket {
    /// The `Sec-WebSocket-Accept` value for a client's `Sec-WebSocket-Key`.
    public static func acceptKey(for key: String) -> String {
        Base64.encode(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
    }

    public enum Opcode: UInt8, Sendable {
        case continuation = 0
        case text = 1
        case binary = 2
        case close = 8
        case ping = 9
        case pong = 10
    }

    /// A whole frame (server to client, never masked).
    public static func frame(_ opcode: Opcode, _ payload: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = [0x80 | opcode.rawValue]
        let count = payload.count
        if count < 126 {
            out.append(UInt8(count))
        } else if count <= 0xFFFF {
            out += [126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            out.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: count >> shift)) }
        }
        out.append(contentsOf: payload)
        return out
    }

    /// A close frame with a status code.
    public static func closeFrame(_ code: UInt16) -> [UInt8] { frame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)]) }

    /// What a client's bytes amount to.
    public enum Message: Equatable, Sendable {
        case text([UInt8])
        case binary
        case ping([UInt8])
        case pong
        case close
        /// The client broke the protocol or sent more than allowed: close with this status and drop it.
        case violation(UInt16)
    }

    /// Collects a client's frames into messages. The payload of one message is bounded by `maximumMessage`: a
    /// larger one is refused as soon as its header says so (status 1009), before its bytes are read into memory.
    public struct Decoder: Sendable {
        public let maximumMessage: Int
        private var buffer: [UInt8] = []
        private var fragments: [UInt8] = []
        private var fragmentOpcode: Opcode?
        private var failed = false

        public init(maximumMessage: Int = 65_536) {
            self.maximumMessage = maximumMessage
        }

        /// Bytes waiting for the rest of their frame.
        public var buffered: Int { buffer.count + fragments.count }

        /// Takes bytes; returns the messages they complete, in order. After a violation nothing more is decoded.
        public mutating func feed(_ bytes: some Collection<UInt8>) -> [Message] {
            guard !failed else { return [] }
            buffer.append(contentsOf: bytes)
            var messages: [Message] = []
            var offset = 0
            while true {
                let available = buffer.count - offset
                guard available >= 2 else { break }
                let first = buffer[offset]
                let second = buffer[offset + 1]
                let fin = first & 0x80 != 0
                guard first & 0x70 == 0 else { return fail(1002, &messages) }
                guard let opcode = Opcode(rawValue: first & 0x0F) else { return fail(1002, &messages) }
                // Clients must mask (RFC 6455 section 5.1).
                guard second & 0x80 != 0 else { return fail(1002, &messages) }
                var length = Int(second & 0x7F)
                var header = 2
                if length == 126 {
                    guard available >= 4 else { break }
                    length = Int(buffer[offset + 2]) << 8 | Int(buffer[offset + 3])
                    header = 4
                } else if length == 127 {
                    guard available >= 10 else { break }
                    var value: UInt64 = 0
                    for index in 0..<8 { value = value << 8 | UInt64(buffer[offset + 2 + index]) }
                    guard value <= UInt64(Int32.max) else { return fail(1009, &messages) }
                    length = Int(value)
                    header = 10
                }
                let isControl = opcode.rawValue >= 8
                if isControl && (length > 125 || !fin) { return fail(1002, &messages) }
                if !isControl && fragments.count + length > maximumMessage { return fail(1009, &messages) }
                guard available >= header + 4 + length else { break }
                let maskStart = offset + header
                let payloadStart = maskStart + 4
                var payload = [UInt8](repeating: 0, count: length)
                for index in 0..<length {
                    payload[index] = buffer[payloadStart + index] ^ buffer[maskStart + index % 4]
                }
                offset = payloadStart + length
                switch opcode {
                case .ping: messages.append(.ping(payload))
                case .pong: messages.append(.pong)
                case .close:
                    messages.append(.close)
                    failed = true
                    buffer.removeAll()
                    return messages
                case .continuation:
                    guard let started = fragmentOpcode else { return fail(1002, &messages) }
                    fragments += payload
                    if fin {
                        messages.append(started == .text ? .text(fragments) : .binary)
                        fragments.removeAll()
                        fragmentOpcode = nil
                    }
                case .text, .binary:
                    guard fragmentOpcode == nil else { return fail(1002, &messages) }
                    if fin {
                        messages.append(opcode == .text ? .text(payload) : .binary)
                    } else {
                        fragmentOpcode = opcode
                        fragments = payload
                    }
                }
            }
            buffer.removeFirst(offset)
            return messages
        }

        private mutating func fail(_ code: UInt16, _ messages: inout [Message]) -> [Message] {
            failed = true
            buffer.removeAll()
            fragments.removeAll()
            messages.append(.violation(code))
            return messages
        }
    }
}
