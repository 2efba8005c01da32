import CPosix
import Marine
import N2K
import Platform

/// A Yacht Devices Wi-Fi or Ethernet gateway (YDWG-02, YDEN-02) in RAW mode: each frame a text line,
/// `17:33:21.107 R 19F51323 01 2F 30 70 00 2F 30 70`, received (`R`) or sent by the gateway for us (`T`, passed
/// over). Over TCP, frames to send go the same way without the time and direction (`19F51323 01 2F ...` and CR LF);
/// over UDP the gateway's broadcast is read only. The connection is a ``TCPClient``'s, in lines, reconnected with
/// backoff (0.5 s doubling to 10 s).
final class YachtDevicesBus: BusTransport {
    let host: String
    let port: Int
    /// TCP (read and write) or UDP (read).
    let stream: Bool
    private let client: TCPClient
    private(set) var unreadable = 0

    init(host: String, port: Int, stream: Bool) {
        self.host = host
        self.port = port
        self.stream = stream
        client = TCPClient(
            host: host, port: port, stream: stream, backoff: Backoff(first: 0.5, limit: 10), lineLimit: 128)
    }

    var description: String { (stream ? "ydraw+tcp://" : "ydraw+udp://") + "\(host):\(port)" }
    var finished: Bool { false }

    func start(at now: Double) {}

    func nextDue(now: Double) -> Double? { client.nextDue(now: now) }

    func prepare(now: Double, into set: inout PollSet) { client.prepare(now: now, into: &set) }

    func service(now: Double, polled set: PollSet, _ body: (BusReading) -> Void) {
        client.service(now: now) { event in
            switch event {
            case .line(let line): take(line, body)
            case .bytes, .datagramEnd: break
            case .connected(let again):
                body(.opened)
                body(.problem(level: again ? .notice : .info, id: "n2k.open", text: "n2k: \(description) connected"))
            case .failed(let why, let code, let first):
                guard first else { return }
                body(
                    .problem(
                        level: code == 0 ? .error : .warning, id: code == 0 ? "n2k.address" : "n2k.open-failed",
                        text: "n2k: \(description): \(why)"))
            case .lost(let reason):
                body(.problem(level: .warning, id: "n2k.down", text: "n2k: \(description): \(reason); reconnecting"))
            }
        }
    }

    /// A line: a frame received, passed on; one the gateway sent for us, passed over.
    private func take(_ line: ArraySlice<UInt8>, _ body: (BusReading) -> Void) {
        guard !line.isEmpty else { return }
        let words = line.split(separator: 32)
        if words.count > 1 && words[1] == [UInt8(ascii: "T")][...] { return }
        guard let parsed = N2KLogLine.parse(line), case .frame(let frame, _) = parsed else {
            unreadable += 1
            return
        }
        body(.frame(frame))
    }

    func send(_ frame: CANFrame, now: Double) -> Bool {
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(8 + 3 * frame.bytes.count + 2)
        func hex(_ value: UInt64, _ count: Int) {
            for shift in stride(from: (count - 1) * 4, through: 0, by: -4) {
                text.append(digits[Int((value >> UInt64(shift)) & 0xF)])
            }
        }
        hex(UInt64(frame.id), 8)
        for byte in frame.bytes {
            text.append(32)
            hex(UInt64(byte), 2)
        }
        text += [13, 10]
        return client.send(text, now: now)
    }

    func close() { client.close() }
}
