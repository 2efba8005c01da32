/// A size the configuration or a command line gives in megabytes, as the bytes the gateway counts against.
///
/// At most half of `Int.max`: on the Pi's 32-bit build (armhf) `Int` is 32 bits, and `Int(4000 * 1_048_576)` trapped
/// there, so `[record] rotate_size_mb = 3000` stopped `check-config`, the panel's settings check and the gateway
/// (found 2026-12-03). Half, so that a count kept against the bound (a recording's bytes, the uplink queue's) can go
/// one write past it without overflowing: a 1 GB recording file or queue at the most on armhf, the size asked for on
/// 64 bits. The history's bound is counted in 64 bits (``HistoryStore``): several gigabytes on the card are ordinary.
enum ByteSize {
    static func of(megabytes: Double) -> Int {
        let bytes = megabytes * 1_048_576
        guard bytes.isFinite, bytes > 0 else { return bytes > 0 ? Int.max / 2 : 0 }
        return bytes >= Double(Int.max / 2) ? Int.max / 2 : Int(bytes)
    }
}
