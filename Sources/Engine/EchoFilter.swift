import NMEA

/// Recognises the gateway's own sentences when they come back on an input (a plotter that echoes everything, a
/// multiplexer loop), so that they are neither re-derived from nor passed through again.
///
/// Every sentence the gateway sends is remembered by a 64-bit hash of its bytes for `window` seconds in a fixed
/// ring; an incoming sentence with a remembered hash is an echo.
public struct EchoFilter: Sendable {
    public var window: Double
    private var hashes: [UInt64]
    private var times: [Double]
    private var next = 0
    /// Echoes recognised so far.
    public private(set) var echoes = 0

    public init(window: Double = 5, capacity: Int = 256) {
        self.window = window
        hashes = Array(repeating: 0, count: max(capacity, 1))
        times = Array(repeating: -.infinity, count: max(capacity, 1))
    }

    /// Remembers a sentence the gateway sends.
    public mutating func remember(_ sentence: Sentence, at time: Double) {
        hashes[next] = EchoFilter.hash(sentence)
        times[next] = time
        next = (next + 1) % hashes.count
    }

    /// Whether `sentence` is one the gateway sent within the window; counts it when it is. A window of 0 turns
    /// recognition off (a replay, where nothing sent can come back, and where an instrument that formats exactly
    /// as Telltale does must not be mistaken for it).
    public mutating func isEcho(_ sentence: Sentence, at time: Double) -> Bool {
        guard window > 0 else { return false }
        let hash = EchoFilter.hash(sentence)
        for index in hashes.indices where hashes[index] == hash && time - times[index] <= window {
            echoes += 1
            return true
        }
        return false
    }

    /// FNV-1a over the sentence bytes (start character through checksum).
    public static func hash(_ sentence: Sentence) -> UInt64 {
        sentence.withUnsafeBytes { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
    }
}
