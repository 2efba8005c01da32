import Platform
import Testing

@testable import Gateway

/// What the bus transports read that is not a frame: a SocketCAN error frame's words (the kernel's classes as
/// linux/can/error.h has them), and a Yacht Devices RAW line's frame.
@Suite struct BusTransportTests {
    func ids(_ frame: POSIX.RawCANFrame) -> [String] {
        SocketCANBus.readings(ofErrorFrame: frame, bus: "can://can0").compactMap {
            if case .problem(_, let id, _) = $0 { id } else { nil }
        }
    }

    @Test("bus-off, a restart, error-passive, nobody acknowledging: each said under its own id, at its level")
    func errorFrames() {
        let flag = POSIX.canError
        #expect(ids(POSIX.RawCANFrame(id: flag | 0x40, count: 8, data: 0)) == ["n2k.bus-off"])
        #expect(ids(POSIX.RawCANFrame(id: flag | 0x100, count: 8, data: 0)) == ["n2k.restarted"])
        // The controller's state is the second data byte: 0x20 transmit error-passive.
        let passive = SocketCANBus.readings(
            ofErrorFrame: POSIX.RawCANFrame(id: flag | 0x04, count: 8, data: 0x20 << 8), bus: "can://can0")
        guard case .problem(let level, "n2k.controller", let text)? = passive.first else {
            Issue.record("\(passive)")
            return
        }
        #expect(level == .warning && text.contains("error-passive"))
        #expect(ids(POSIX.RawCANFrame(id: flag | 0x20 | 0x80, count: 8, data: 0)) == ["n2k.no-ack", "n2k.bus-error"])
        #expect(ids(POSIX.RawCANFrame(id: flag, count: 8, data: 0)).isEmpty)
    }
}
